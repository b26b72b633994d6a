package dev.docsassistant;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.docsassistant.model.ModelEvent;
import dev.docsassistant.model.ModelReply;
import dev.docsassistant.model.ModelRequest;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.Usage;
import org.apache.camel.BindToRegistry;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.docsassistant.AssistantV2EndpointTest.chat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The /v2 stream while the model is slow or fails: keep-alive comments while it is silent (every second here,
 * 15 s by default), none on /v1 whose protocol forbids them, and a failure after the first byte as an error chunk.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.model.provider=unreliable", "assistant.stream.keep-alive-seconds=1"})
class AssistantV2StreamingTest extends ServiceTest {

    @BindToRegistry("unreliableModel")
    private final UnreliableModel model = new UnreliableModel();

    @BeforeEach
    void holdTheModel() {
        model.hold();
    }

    @Test
    void sendsKeepAlivesWhileTheModelIsSilent() throws Exception {
        try (BufferedReader lines = open("/v2/assistant/acme/message", chat(null, null, "please wait"))) {
            readThrough(lines, "data: {\"type\":\"text-delta\"");
            long silentSince = System.nanoTime();
            List<String> whileWaiting = readThrough(lines, ": keep-alive");
            assertEquals(0, model.deltasAfterGate.get(), "the keep-alive came while the model was still silent");
            assertTrue(System.nanoTime() - silentSince > 500_000_000L, "not before the stream was silent for a while");
            assertTrue(whileWaiting.stream().allMatch(line -> line.isEmpty() || line.equals(": keep-alive")),
                    whileWaiting.toString());
            readThrough(lines, ": keep-alive"); // and again, a second later

            model.release();
            List<String> rest = readThrough(lines, "data: [DONE]");
            assertTrue(rest.stream().anyMatch(line -> line.contains("\"delta\":\"second\"")), rest.toString());
            assertTrue(rest.stream().anyMatch(line -> line.startsWith("data: {\"type\":\"finish\"")), rest.toString());
        }
    }

    @Test
    void aV1StreamGetsNoKeepAlives() throws Exception {
        try (BufferedReader lines = open("/v1/assistant/acme/message", question("please wait"))) {
            readThrough(lines, "0:");
            Thread.sleep(2_500);
            model.release();
            List<String> rest = lines.lines().toList();
            assertEquals("0:\"second\"", rest.get(0), "nothing but parts while the model was silent");
            assertTrue(rest.get(rest.size() - 1).startsWith("d:"), rest.toString());
        }
    }

    @Test
    void aFailureAfterTheFirstByteEndsTheStreamWithAnErrorChunk() throws Exception {
        HttpResponse<String> response = send(post("/v2/assistant/acme/message", ACME_KEY,
                chat(null, null, "please fail")));
        assertEquals(200, response.statusCode());
        String body = response.body();
        assertTrue(body.contains("data: {\"type\":\"text-delta\""), body);
        assertTrue(body.endsWith("data: {\"type\":\"error\",\"errorText\":\"The answer was interrupted by an error. "
                + "Please ask again.\"}\n\ndata: [DONE]\n\n"), body);
        assertFalse(body.contains("\"type\":\"finish\""), body);
        assertFalse(body.contains("IllegalStateException"), "no internals in the stream");
    }

    private BufferedReader open(String path, String body) throws Exception {
        HttpResponse<InputStream> response = http.send(post(path, ACME_KEY, body).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    /** Lines up to and including the first that starts with {@code prefix}. */
    private static List<String> readThrough(BufferedReader lines, String prefix) throws Exception {
        List<String> read = new ArrayList<>();
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            read.add(line);
            if (line.startsWith(prefix)) {
                return read;
            }
        }
        throw new AssertionError("the stream ended before '" + prefix + "': " + read);
    }

    /** {@link GatedModel}, except that for a question containing "fail" the reply fails after its first delta. */
    static class UnreliableModel extends GatedModel {

        @Override
        public ModelReply answer(ModelRequest request) {
            ModelReply gated = super.answer(request);
            if (!request.chat().question().contains("fail")) {
                return gated;
            }
            return new ModelReply() {
                private boolean started;

                @Override
                public List<Source> sources() {
                    return gated.sources();
                }

                @Override
                public ModelEvent next() throws Exception {
                    if (started) {
                        throw new IllegalStateException("the upstream went away");
                    }
                    started = true;
                    return gated.next();
                }

                @Override
                public Usage usage() {
                    return gated.usage();
                }

                @Override
                public void close() {
                    gated.close();
                }
            };
        }
    }
}
