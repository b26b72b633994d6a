package dev.docsassistant.bench.jmh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.search.DocsFolder;
import dev.docsassistant.search.DomainIndex;
import dev.docsassistant.search.IndexFiles;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.SearchQuery;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One search of the mintlify-docs corpus (../shared/corpus, or -Dcorpus=…), cycling through its eval-dev questions;
 * sample mode reports p50/p99 per search. {@code semantic} adds the question's embedding and the vector scan.
 * {@code questions=new} numbers every question ("… (#123)"), so no question, and no number, was seen before: the
 * embedding is computed and the number's term looked up on every search, as for a reader's new question.
 * {@code -DindexDir=…} keeps the built index there ({@code assistant.search.index-dir}), so later forks open it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class SearchBenchmark {

    @Param({"false", "true"})
    public boolean semantic;

    @Param({"repeated", "new"})
    public String questions;

    private DomainIndex index;
    private List<String> asked;
    private int next;

    @Setup
    public void setUp() throws Exception {
        Path corpus = Path.of(System.getProperty("corpus", "../shared/corpus"));
        IndexFiles files = new IndexFiles(System.getProperty("indexDir", ""));
        index = files.index("mintlify", DocsFolder.read(corpus.resolve("mintlify-docs").toString()), "", semantic,
                null);
        files.keep("mintlify", index, semantic); // the next run opens it instead of embedding the corpus again
        ObjectMapper json = new ObjectMapper();
        asked = Files.readAllLines(corpus.resolve("eval-dev/mintlify-docs.jsonl")).stream()
                .filter(line -> !line.isBlank())
                .map(line -> {
                    try {
                        return json.readTree(line).get("q").asText();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
    }

    @Benchmark
    public List<SearchHit> search() {
        String question = asked.get(++next % asked.size());
        return index.search(SearchQuery.of(questions.equals("new") ? question + " (#" + next + ")" : question, 10));
    }
}
