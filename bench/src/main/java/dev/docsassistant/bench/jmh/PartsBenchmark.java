package dev.docsassistant.bench.jmh;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.model.Usage;
import dev.docsassistant.search.DocsFolder;
import dev.docsassistant.search.DomainIndex;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.SearchQuery;
import dev.docsassistant.stream.DataStreamParts;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Encoding the AI SDK v4 parts: a text delta (per token) and the search result (once per answer). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PartsBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DataStreamParts v4 = new DataStreamParts();

    private List<SearchHit> hits;
    private final Usage usage = new Usage(752, 373);

    @Setup
    public void setUp() throws Exception {
        DomainIndex index = DomainIndex.build(DocsFolder.read("classpath:demo-docs"), "", false, Map.of());
        hits = index.search(SearchQuery.of("How do I change the port?", 5));
    }

    @Benchmark
    public String textDelta() {
        return v4.textDelta("txt-1", "the \"port\" setting ");
    }

    /** The text part as it was written before issue 8 (through the object mapper), for the ratio. */
    @Benchmark
    public String textDeltaViaObjectMapper() throws Exception {
        return "0:" + JSON.writeValueAsString("the \"port\" setting ") + "\n";
    }

    @Benchmark
    public String searchResult() {
        return v4.searchResult("call_abcdefghijkl", hits);
    }

    @Benchmark
    public String finish() {
        return v4.finish("stop", usage, "thr_abcdefghijklmnop");
    }
}
