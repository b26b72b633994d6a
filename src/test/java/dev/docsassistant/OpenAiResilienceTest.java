package dev.docsassistant;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admission of model calls: one instance makes at most {@code max-concurrent} at once and answers the next
 * 503 with Retry-After; after repeated failures the upstream's circuit opens and answers come from the documentation
 * alone, saying so in a message annotation, without calling the server.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.model.provider={{test.model.provider:openai}}", "assistant.model.retries=0", "assistant.model.max-concurrent=1",
        "assistant.model.circuit.minimum-calls=2", "assistant.model.circuit.failure-rate=100",
        "assistant.model.circuit.open-seconds=600", "assistant.model.circuit.when-open=fallback"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OpenAiResilienceTest extends ModelServerTest {

    @Test
    @Order(1)
    void callsOverTheCapAreRefusedWithRetryAfter() throws Exception {
        CompletableFuture<Void> release = new CompletableFuture<>();
        stub.then(stub.gated("Hello", release, " world"));
        HttpResponse<InputStream> streaming = http.send(post("/v1/assistant/acme/message", ACME_KEY,
                question("How do I change the port?")).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(streaming.body(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); !line.startsWith("0:"); line = lines.readLine()) {
                assertTrue(line.length() > 0);
            }
            HttpResponse<String> refused = ask("acme", ACME_KEY, question("How do I run it?"));
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals("1", refused.headers().firstValue("Retry-After").orElseThrow());
            assertEquals("model_busy", JSON.readTree(refused.body()).get("code").asText());
            assertEquals(1, stub.requests.size(), "the refused call never reached the server");

            release.complete(null);
            assertTrue(lines.lines().reduce((a, b) -> b).orElseThrow().startsWith("d:"), "the first one finished");
        }
        assertEquals(200, ask("acme", ACME_KEY, question("How do I run it?")).statusCode(), "a free slot again");
    }

    @Test
    @Order(2)
    void aClientThatLeavesBeforeTheFirstTokenCancelsTheUpstreamCall() throws Exception {
        stub.then(stub.hangAfter()); // the role chunk, then silence; the first-token timeout here is 30 s
        String body = question("How do I change the port?");
        try (Socket socket = new Socket(uri("").getHost(), uri("").getPort())) {
            socket.getOutputStream().write(("POST /v1/assistant/acme/message HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + ACME_KEY + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.UTF_8));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (stub.requests.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(1, stub.requests.size(), "the model server was called");
        } // the client leaves before any token
        stub.abandoned.get(5, TimeUnit.SECONDS); // long before the first-token timeout
        // The server sees the connection drop a moment before the aborted call has unwound and freed its slot.
        int status = 0;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (status != 200 && System.nanoTime() < until) {
            status = ask("acme", ACME_KEY, question("How do I run it?")).statusCode();
            Thread.sleep(status == 200 ? 0 : 20);
        }
        assertEquals(200, status, "the slot was freed");
    }

    @Test
    @Order(3)
    void anOpenCircuitFallsBackToTheDocumentationAndSaysSo() throws Exception {
        stub.then(stub.status(500, Map.of()), stub.status(500, Map.of()));
        assertEquals(502, ask("acme", ACME_KEY, question("How do I change the port?")).statusCode());
        assertEquals(502, ask("acme", ACME_KEY, question("How do I change the port?")).statusCode());

        HttpResponse<String> fallback = ask("acme", ACME_KEY, question("How do I change the port?"));
        assertEquals(200, fallback.statusCode(), fallback.body());
        assertEquals(2, stub.requests.size(), "the open circuit did not call the server");
        List<Part> parts = parts(fallback.body());
        JsonNode annotation = parts.stream().filter(p -> p.code().equals("8")).findFirst().orElseThrow().value();
        assertEquals("model_unavailable", annotation.get(0).get("code").asText());
        assertTrue(annotation.get(0).get("message").asText().contains("unavailable"), annotation.toString());
        assertTrue(fallback.body().contains("camel.server.port"), "the extractive answer: " + fallback.body());
        assertTrue(parts.get(parts.size() - 1).code().equals("d"));
    }
}
