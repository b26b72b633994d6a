package dev.docsassistant.model;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.ground.Json;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Reading an OpenAI chat-completions stream: the server-sent events of an answer, each token's chunk as OpenAI sends
 * it, read into the content deltas the stream step writes, with one {@link ChatCompletionChunk.Parser} per answer as
 * a stream has. In the provider's package (the reader is not public API); {@code -prof gc} gives the bytes allocated
 * per answer. The tree variant is how chunks were read before {@link ChatCompletionChunk}, for the ratio.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SseBenchmark {

    private static final ObjectMapper JSON = Json.mapper();
    /** Tokens in the answer: what one more token costs is the difference over the difference in tokens. */
    @Param({"20", "200"})
    int tokens;

    private byte[] answer;

    @Setup
    public void answer() {
        answer = answer(tokens);
    }

    @Benchmark
    public void readChunks(Blackhole sink) throws Exception {
        EventStream events = new EventStream(new ByteArrayInputStream(answer), 1 << 20);
        ChatCompletionChunk.Parser chunks = new ChatCompletionChunk.Parser();
        while (events.next()) {
            if (events.length() != 6) {
                sink.consume(chunks.parse(events.data(), events.length()).content());
            } else { // [DONE]
                chunks.end();
            }
        }
    }

    @Benchmark
    public void readChunksAsTrees(Blackhole sink) throws Exception {
        EventStream events = new EventStream(new ByteArrayInputStream(answer), 1 << 20);
        while (events.next()) {
            if (events.length() != 6) {
                JsonNode chunk = JSON.readTree(events.data(), 0, events.length());
                sink.consume(chunk.path("choices").path(0).path("delta").path("content").asText(""));
            }
        }
    }

    private static byte[] answer(int tokens) {
        StringBuilder sse = new StringBuilder();
        String head = "data: {\"id\":\"chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012\",\"object\":\"chat.completion.chunk\","
                + "\"created\":1763900000,\"model\":\"gpt-4o-mini-2024-07-18\",\"system_fingerprint\":\"fp_0aa8d3e20b\","
                + "\"choices\":[{\"index\":0,\"delta\":";
        sse.append(head).append("{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"logprobs\":null,"
                + "\"finish_reason\":null}],\"usage\":null}\n\n");
        for (int i = 0; i < tokens; i++) {
            sse.append(head).append("{\"content\":\" token").append(i).append("\"},\"logprobs\":null,"
                    + "\"finish_reason\":null}],\"usage\":null}\n\n");
        }
        sse.append(head).append("{},\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":null}\n\n");
        sse.append("data: {\"id\":\"chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012\",\"object\":\"chat.completion.chunk\","
                + "\"created\":1763900000,\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[],\"usage\":"
                + "{\"prompt_tokens\":752,\"completion_tokens\":" + tokens + ",\"total_tokens\":" + (752 + tokens)
                + "}}\n\n");
        sse.append("data: [DONE]\n\n");
        return sse.toString().getBytes(StandardCharsets.UTF_8);
    }
}
