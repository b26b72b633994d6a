package dev.docsassistant;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The service as a 512 MiB pod runs it (its own JVM, {@code -Xmx512m}, meaning search on as shipped) stays up under
 * a flood of distinct ~900 KB requests from many addresses: nothing a request brings stays in memory beyond the byte
 * caps. When the search cache kept whole queries, such a service ran out of heap after ~200 of them and stopped
 * answering. The same holds for many 4 MB image attachments at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BoundedHeapTest {

    private static final String KEY = "mint_dsc_heap_test";
    private static final int REQUESTS = 300;
    private static final int CLIENTS = 2;
    /** Context items of the most characters a text may have: 28 × 32,000 ≈ 900 KB. */
    private static final int CONTEXT_ITEMS = 28;
    private static final int TEXT_CHARS = 32_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Readers attaching a 4 MB image at once, and the requests they send: more than the bodies' budget holds. */
    private static final int ATTACHING_CLIENTS = 12;
    private static final int ATTACHMENTS = 48;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final Path log = Path.of("target", "bounded-heap-service.log");
    private OwnJvmService service;

    @BeforeAll
    void startService() throws Exception {
        service = OwnJvmService.launch(Path.of(System.getProperty("java.home"), "bin", "java"), List.of("-Xmx512m"),
                        log, null)
                .property("assistant.demo.key", KEY)
                .property("assistant.trusted-proxies", "127.0.0.1")
                // a per-address short window must not refuse these
                .property("assistant.ratelimit.ip-per-minute", "1000000")
                .property("assistant.ratelimit.org-per-hour", "1000000")
                .property("assistant.search.reload-seconds", "0")
                .start(90);
    }

    @AfterAll
    void stopService() throws InterruptedException {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void distinctLargeRequestsFromManyAddressesLeaveTheServiceAnswering() throws Exception {
        long start = System.nanoTime();
        inParallel(CLIENTS, REQUESTS, n -> {
            HttpResponse<String> response = ask(large(n), "10." + (n >> 8) + "." + (n & 255) + ".7");
            assertTrue(response.statusCode() < 500, "request " + n + " was answered "
                    + response.statusCode() + ": " + tail(response.body()) + "; see " + log);
        });
        System.out.printf("BoundedHeapTest: %d requests of ~%d KB from %d addresses in %.1f s%n", REQUESTS,
                large(0).length() / 1000, REQUESTS, (System.nanoTime() - start) / 1e9);

        assertTrue(service.isAlive(), "the service is still running");
        HttpResponse<String> answer = ask(question("How do I configure the assistant?"), "10.9.9.9");
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("\"finishReason\":\"stop\""), answer.body());
        assertHealthyWithoutOutOfMemory();
    }

    /**
     * Mintlify's attachments: a 4 MB image as a data: URL (5.6 MB of JSON), from many readers at once. The bodies held
     * at once are bounded (assistant.http.body-budget-bytes): each is answered, or refused with 503 bodies_busy and
     * Retry-After, and the service stays up with its heap; one sent again once refused is accepted.
     */
    @Test
    void manyConcurrentLargeAttachmentsLeaveTheServiceAnswering() throws Exception {
        byte[] image = new byte[4_000_000];
        new Random(4).nextBytes(image);
        String dataUrl = "data:image/png;base64," + Base64.getEncoder().encodeToString(image);
        AtomicInteger answered = new AtomicInteger();
        inParallel(ATTACHING_CLIENTS, ATTACHMENTS, n -> {
            HttpResponse<String> response;
            try {
                response = ask(withImage(n, dataUrl), "10.8.0." + n);
            } catch (IOException refusedWhileSending) { // a 503 closes the connection on the rest of the body
                return;
            }
            assertTrue(response.statusCode() == 200 || response.statusCode() == 503
                    && response.body().contains("bodies_busy"), "request " + n + " was answered "
                    + response.statusCode() + ": " + tail(response.body()) + "; see " + log);
            answered.addAndGet(response.statusCode() == 200 ? 1 : 0);
        });
        assertTrue(answered.get() > 0, "some were answered while others waited");
        assertTrue(Files.readString(log).lines().filter(line -> line.contains("\"client\":\"10.8.0."))
                .allMatch(line -> line.contains("\"status\":200") || line.contains("\"status\":503")),
                "each was answered or refused as busy, none failed; see " + log);
        HttpResponse<String> alone = ask(withImage(-1, dataUrl), "10.9.9.8");
        assertEquals(200, alone.statusCode(), tail(alone.body()));
        assertTrue(alone.body().contains("attachment_not_read"), "the offline model says it did not read the image");
        assertTrue(service.isAlive(), "the service is still running");
        assertHealthyWithoutOutOfMemory();
    }

    private void assertHealthyWithoutOutOfMemory() throws Exception {
        assertEquals(200, get(URI.create("http://127.0.0.1:" + service.managementPort() + "/observe/health"))
                .statusCode());
        assertTrue(Files.readString(log).lines().noneMatch(line -> line.contains("OutOfMemoryError")),
                "no OutOfMemoryError in " + log);
    }

    /** One request a client makes: the {@code n}th of all. */
    private interface Request {
        void send(int n) throws Exception;
    }

    /** {@code total} requests from {@code clients} clients at once; fails with the first that failed. */
    private static void inParallel(int clients, int total, Request request) throws Exception {
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<Void>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                running.add(pool.submit(() -> {
                    for (int n = next.getAndIncrement(); n < total; n = next.getAndIncrement()) {
                        request.send(n);
                    }
                    return null;
                }));
            }
            for (Future<Void> client : running) {
                client.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static String withImage(int n, String dataUrl) {
        ObjectNode body = (ObjectNode) JSON.valueToTree(Map.of("fp", "fp-heap"));
        String text = "What does this screenshot " + n + " show?";
        ObjectNode message = body.putArray("messages").addObject().put("id", "m0").put("role", "user")
                .put("content", text);
        message.putArray("parts").addObject().put("type", "text").put("text", text);
        message.putArray("experimental_attachments").addObject().put("name", "screenshot.png")
                .put("contentType", "image/png").put("url", dataUrl);
        return body.toString();
    }

    /** Made-up words, one of them with a character outside Latin-1 (a Java string of 2 bytes a character). */
    private static final String WORDS = words(new Random(1), TEXT_CHARS);

    /**
     * Request {@code n}: its own texts (so no cache can share them), made up of {@link #WORDS}: written by hand, as
     * they need no escaping, so that the client spends its time sending rather than composing.
     */
    private static String large(int n) {
        StringBuilder body = new StringBuilder(CONTEXT_ITEMS * (TEXT_CHARS + 40)).append("{\"fp\":\"fp-heap\",")
                .append("\"messages\":[{\"id\":\"m0\",\"role\":\"user\",\"content\":\"How do I deploy ")
                .append(n).append(' ').append(WORDS, 0, 1_000).append("?\",\"parts\":[{\"type\":\"text\",")
                .append("\"text\":\"How do I deploy ").append(n).append("?\"}]}],\"context\":[");
        for (int i = 0; i < CONTEXT_ITEMS; i++) {
            String distinct = "ł r" + n + "i" + i;
            body.append(i == 0 ? "" : ",").append("{\"type\":\"code\",\"value\":\"").append(distinct)
                    .append(WORDS, distinct.length(), TEXT_CHARS).append("\"}");
        }
        return body.append("]}").toString();
    }

    private static String words(Random random, int chars) {
        StringBuilder text = new StringBuilder(chars).append("ł");
        while (text.length() < chars) {
            text.append(' ');
            for (int letters = 3 + random.nextInt(8); letters > 0 && text.length() < chars; letters--) {
                text.append((char) ('a' + random.nextInt(26)));
            }
        }
        return text.toString();
    }

    private static String question(String text) {
        ObjectNode body = JSON.createObjectNode().put("fp", "fp-heap");
        ObjectNode message = body.putArray("messages").addObject().put("id", "m0").put("role", "user")
                .put("content", text);
        message.putArray("parts").addObject().put("type", "text").put("text", text);
        return body.toString();
    }

    private HttpResponse<String> ask(String body, String forwardedFor) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(service.uri("/v1/assistant/demo/message"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + KEY)
                .header("X-Forwarded-For", forwardedFor)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String tail(String text) {
        return text.length() > 300 ? "…" + text.substring(text.length() - 300) : text;
    }
}
