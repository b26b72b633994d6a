package dev.docsassistant;

import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.docsassistant.analytics.RecordWriter;
import dev.docsassistant.analytics.Records;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The store of record's events through a Pipe to a real HTTP sink: the Pipe of k8s/examples/record-events/kafka.yaml
 * with the Kamelet catalogue's http-sink in place of kafka-sink, dropped into {@code assistant.routes-dir}, against a
 * web server of the test's own. Each committed row arrives once as JSON with its type; while the sink answers 500 the
 * rows are still kept in the store (what the guide promises: nothing of record is lost).
 */
class RecordEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void everyCommittedRowReachesAKameletSinkAndASinkThatIsDownLosesNoRow(@TempDir Path folder) throws Exception {
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        AtomicInteger status = new AtomicInteger(200);
        HttpServer sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        sink.createContext("/events", exchange -> {
            received.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(status.get(), -1);
            exchange.close();
        });
        sink.start();
        try {
            Path routes = Files.createDirectories(folder.resolve("routes"));
            String pipe = Files.readString(Path.of("k8s/examples/record-events/kafka.yaml"));
            pipe = pipe.substring(0, pipe.indexOf("      name: kafka-sink")) + "      name: http-sink\n"
                    + "    properties:\n      url: \"RAW(http://127.0.0.1:" + sink.getAddress().getPort() + "/events)\"\n";
            Files.writeString(routes.resolve("record-events.yaml"), pipe);
            Map<String, String> properties = AnalyticsTest.properties(folder.resolve("data"));
            properties.put("assistant.records.events", "true");
            properties.put("assistant.routes-dir", routes.toString());
            try (ServiceInstance service = ServiceInstance.start(properties, http)) {
                RecordWriter writer = service.bean("recordWriter", RecordWriter.class);
                Instant at = Instant.parse("2026-10-01T10:00:00Z");
                writer.offer(new Records.Turn("acme", "acme", "thr_ev", "msg_ev", "fp-events", at, at,
                        "How do I change the port?", "Set server.port.", "answer",
                        "[{\"title\":\"Configuration\",\"url\":\"https://acme.example.com/docs/configuration\"}]",
                        "answered", "web", null, null));
                writer.offer(new Records.Feedback("acme", "acme", "fp-events", "assistant", null, false, null,
                        "too short", null, null, null, "thr_ev", "msg_ev", at));
                writer.offer(new Records.Search("acme", "acme", "rate limits", at));
                List<JsonNode> events = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    String body = received.poll(30, TimeUnit.SECONDS);
                    assertNotNull(body, "event " + (i + 1) + " of 3 delivered");
                    events.add(JSON.readTree(body));
                }
                JsonNode answer = events.get(0);
                assertEquals("answer", answer.get("type").asText(), events.toString());
                assertEquals("How do I change the port?", answer.get("question").asText());
                assertEquals("https://acme.example.com/docs/configuration",
                        answer.get("sources").get(0).get("url").asText());
                assertEquals(List.of("rating", "search"), List.of(events.get(1).get("type").asText(),
                        events.get(2).get("type").asText()));
                assertEquals(false, events.get(1).get("helpful").asBoolean());
                assertEquals("rate limits", events.get(2).get("query").asText());
                assertEquals(false, answer.has("fp"), "the reader's fingerprint stays in the store");

                status.set(500); // the sink is down: the rows are kept all the same
                writer.offer(new Records.Turn("acme", "acme", "thr_ev2", "msg_ev2", "fp-events", at, at,
                        "And on Kubernetes?", "…", "answer", "[]", "unanswered", "api", null, null));
                assertNotNull(received.poll(30, TimeUnit.SECONDS), "offered to the failing sink");
                AnalyticsTest.awaitRows(service, "turns", "fp-events", 2);
            }
        } finally {
            sink.stop(0);
        }
    }
}
