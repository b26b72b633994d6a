package dev.docsassistant;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.camel.BindToRegistry;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stream as a client sees it while the model is still answering: each part arrives when it is written, a
 * client that leaves stops the model, and many waiting streams do not hold up new requests.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.model.provider=gated",
        ServiceTest.UNLIMITED_ADDRESS_RATE, ServiceTest.UNLIMITED_ADDRESS_STREAMS})
class StreamingTest extends ServiceTest {

    /** More concurrent streams than Vert.x's default worker pool (20 threads) could hold. */
    private static final int STREAMS = 60;

    @BindToRegistry("gatedModel")
    private final GatedModel model = new GatedModel();

    @BeforeEach
    void holdTheModel() {
        model.hold();
    }

    @Test
    void aPartReachesTheClientBeforeTheStreamEnds() throws Exception {
        HttpResponse<InputStream> response = http.send(post("/v1/assistant/acme/message", ACME_KEY,
                question("please wait")).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        try (BufferedReader lines = reader(response)) {
            List<String> before = readThroughFirstText(lines);
            assertEquals("0:\"first \"", before.get(before.size() - 1), "the first delta arrived on its own");
            assertEquals(0, model.deltasAfterGate.get(), "and the model had not produced more yet");

            model.release();
            List<String> rest = lines.lines().toList();
            assertEquals("0:\"second\"", rest.get(0));
            assertTrue(rest.get(rest.size() - 1).startsWith("d:"), rest.toString());
        }
    }

    @Test
    void aClientThatLeavesStopsTheModel() throws Exception {
        int closedBefore = model.closed.get();
        HttpResponse<InputStream> response = http.send(post("/v1/assistant/acme/message", ACME_KEY,
                question("please wait")).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader lines = reader(response)) {
            readThroughFirstText(lines);
        } // closing the body closes the connection mid-stream

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (model.closed.get() == closedBefore && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(model.closed.get() > closedBefore, "the reply was closed after the client left");
        assertEquals(200, ask("acme", ACME_KEY, question("How do I run it?")).statusCode(), "still serving");
    }

    @Test
    void waitingStreamsDoNotStarveNewRequests() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> streams = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) {
            streams.add(http.sendAsync(post("/v1/assistant/acme/message", ACME_KEY, question("please wait " + i))
                    .build(), HttpResponse.BodyHandlers.ofString()));
        }
        try {
            HttpResponse<String> quick = ask("acme", ACME_KEY, question("How do I run it?"));
            assertEquals(200, quick.statusCode());
            assertTrue(quick.body().contains("d:{"), "answered in full while " + STREAMS + " streams wait");
            assertTrue(streams.stream().noneMatch(CompletableFuture::isDone), "the waiting streams are still open");
        } finally {
            model.release();
        }
        for (CompletableFuture<HttpResponse<String>> stream : streams) {
            HttpResponse<String> done = stream.get(30, TimeUnit.SECONDS);
            assertEquals(200, done.statusCode());
            assertTrue(done.body().contains("0:\"second\""), done.body());
        }
    }

    private static BufferedReader reader(HttpResponse<InputStream> response) {
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    private static List<String> readThroughFirstText(BufferedReader lines) throws Exception {
        List<String> read = new ArrayList<>();
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            read.add(line);
            if (line.startsWith("0:")) {
                return read;
            }
        }
        throw new AssertionError("the stream ended before any text: " + read);
    }
}
