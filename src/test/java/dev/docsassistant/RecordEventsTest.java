package dev.docsassistant;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

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
            try (ServiceInstance service = ServiceInstance.start(withSink(folder, sink.getAddress().getPort()),
                    http)) {
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

    /**
     * The sink holds the first event (the route waits on it) while a reader's rows are committed, their events
     * queued behind it; the reader is erased, the sink let go: none of the erased reader's events leaves, another
     * reader's does.
     */
    @Test
    void anErasedReadersEventsStillQueuedNeverLeave(@TempDir Path folder) throws Exception {
        try (HeldSink sink = HeldSink.start();
                ServiceInstance service = ServiceInstance.start(withSink(folder, sink.port()), http)) {
            RecordWriter writer = service.bean("recordWriter", RecordWriter.class);
            queueBehindTheHeldEvent(writer, sink);
            AnalyticsTest.awaitRows(service, "turns", "fp-gone", 1);
            AnalyticsTest.awaitRows(service, "feedback", "fp-gone", 1);
            AnalyticsTest.awaitRows(service, "turns", "fp-stays", 1); // its event queued behind the first
            HttpResponse<String> erased = AnalyticsTest.erase(http, service, "fp-gone");
            assertEquals(200, erased.statusCode(), erased.body());
            sink.letGo();
            assertNoneOfTheErasedReadersEventsLeft(writer, "fp-after", sink);
        }
    }

    /**
     * Offers a first row, waits for its event to be held by the sink, then offers an erased reader's ({@code fp-gone})
     * turn and feedback and another reader's ({@code fp-stays}) turn: their events queue behind the held one.
     */
    static void queueBehindTheHeldEvent(RecordWriter writer, HeldSink sink) throws InterruptedException {
        Instant at = Instant.now();
        writer.offer(turn("fp-first", "The first question?", at));
        assertTrue(sink.held().await(30, TimeUnit.SECONDS), "the first event reached the sink");
        writer.offer(turn("fp-gone", "zqxgone question?", at));
        writer.offer(new Records.Feedback("acme", "acme", "fp-gone", "contextual", "/quickstart", false, null,
                "zqxgone comment", null, null, null, null, null, at));
        writer.offer(turn("fp-stays", "The question that stays?", at));
    }

    /**
     * Once the sink is let go: offers {@code fp}'s row made now and reads the events up to it; fp-stays's is among
     * them, none of the erased reader's.
     */
    static void assertNoneOfTheErasedReadersEventsLeft(RecordWriter writer, String fp, HeldSink sink)
            throws InterruptedException {
        writer.offer(turn(fp, "The question after?", Instant.now()));
        List<String> events = new ArrayList<>();
        while (events.stream().noneMatch(event -> event.contains("The question after?"))) {
            String event = sink.received().poll(30, TimeUnit.SECONDS);
            assertNotNull(event, "the last event was not delivered: " + events);
            events.add(event);
        }
        assertTrue(events.stream().anyMatch(event -> event.contains("The question that stays?")), events.toString());
        assertTrue(events.stream().noneMatch(event -> event.contains("zqxgone")), events.toString());
    }

    /**
     * A started sink on {@code /events} that keeps each event in {@code received} and holds every request until
     * released; {@code held} counts down at the first, so the route waits while later events queue. Closing it lets
     * every request go and stops it.
     */
    record HeldSink(HttpServer server, BlockingQueue<String> received, CountDownLatch held, CountDownLatch release)
            implements AutoCloseable {

        static HeldSink start() throws IOException {
            HeldSink sink = new HeldSink(HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0),
                    new LinkedBlockingQueue<>(), new CountDownLatch(1), new CountDownLatch(1));
            sink.server.createContext("/events", exchange -> {
                sink.received.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                sink.held.countDown();
                try {
                    sink.release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            sink.server.start();
            return sink;
        }

        int port() {
            return server.getAddress().getPort();
        }

        void letGo() {
            release.countDown();
        }

        @Override
        public void close() {
            release.countDown();
            server.stop(0);
        }
    }

    /** The properties of an instance offering its events through the Pipe of the guide to the sink's port. */
    static Map<String, String> withSink(Path folder, int port) throws IOException {
        Path routes = Files.createDirectories(folder.resolve("routes"));
        String pipe = Files.readString(Path.of("k8s/examples/record-events/kafka.yaml"));
        pipe = pipe.substring(0, pipe.indexOf("      name: kafka-sink")) + "      name: http-sink\n"
                + "    properties:\n      url: \"RAW(http://127.0.0.1:" + port + "/events)\"\n";
        Files.writeString(routes.resolve("record-events.yaml"), pipe);
        Map<String, String> properties = AnalyticsTest.properties(folder.resolve("data"));
        properties.put("assistant.records.events", "true");
        properties.put("assistant.routes-dir", routes.toString());
        return properties;
    }

    private static Records.Turn turn(String fp, String question, Instant at) {
        return new Records.Turn("acme", "acme", "thr_" + fp, "msg_" + fp, fp, at, at, question, "An answer.",
                "answer", "[]", "answered", "web", null, null);
    }
}
