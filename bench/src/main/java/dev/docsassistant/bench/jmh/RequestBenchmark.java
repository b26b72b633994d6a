package dev.docsassistant.bench.jmh;

import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.RequestJson;
import dev.docsassistant.request.ValidateRequest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Binding and validating a useChat body of three messages, as the unmarshal and validateRequest steps do. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RequestBenchmark {

    static final String BODY = """
            {"id":"chat-1","fp":"fp-1234","retrievalPageSize":5,"currentPath":"/quickstart",
             "filter":{"version":"v2","language":"en"},
             "messages":[
              {"id":"m1","role":"user","content":"How do I change the port?","createdAt":"2026-11-23T09:00:00.000Z",
               "parts":[{"type":"text","text":"How do I change the port?"}]},
              {"id":"m2","role":"assistant","content":"Set CAMEL_SERVER_PORT.","createdAt":"2026-11-23T09:00:01.000Z",
               "parts":[{"type":"step-start"},{"type":"text","text":"Set CAMEL_SERVER_PORT."}]},
              {"id":"m3","role":"user","content":"And for the health endpoint?","createdAt":"2026-11-23T09:00:05.000Z",
               "parts":[{"type":"text","text":"And for the health endpoint?"}]}]}
            """;

    // As wiring.yaml (the mapper) and step-beans.yaml (the step) configure them by default.
    private final ObjectMapper mapper = RequestJson.mapper(32);
    private final ValidateRequest validate = new ValidateRequest(100, 32000);

    @Benchmark
    public ChatRequest parseAndValidate() throws Exception {
        ChatRequest request = mapper.readValue(BODY, ChatRequest.class);
        validate.validate(request);
        return request;
    }
}
