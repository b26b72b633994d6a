package dev.docsassistant;

import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.docsassistant.analytics.RecordEvents;
import dev.docsassistant.analytics.RecordWriter;
import org.apache.camel.Exchange;
import org.apache.camel.component.seda.SedaEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances on one real PostgreSQL (started by the test): each exports the turns the other answered, as
 * replicas behind one load balancer must, and counts a page one serves as a click on a search the other answered.
 */
class SharedRecordsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void twoInstancesOnOnePostgresExportEachOthersTurns() throws Exception {
        try (PostgresServer postgres = PostgresServer.startOrSkip()) {
            Path unused = Files.createTempDirectory("records-unused");
            Map<String, String> properties = onPostgres(postgres, unused);
            try (ServiceInstance a = ServiceInstance.start(properties, http);
                    ServiceInstance b = ServiceInstance.start(properties, http)) {
                String onA = thread(a.message(http, "acme", ServiceTest.ACME_KEY, body("fp-a")));
                String onB = thread(b.message(http, "acme", ServiceTest.ACME_KEY, body("fp-b")));
                AnalyticsTest.awaitRows(a, "turns", "fp-b", 1);
                AnalyticsTest.awaitRows(b, "turns", "fp-a", 1);
                for (ServiceInstance instance : new ServiceInstance[] {a, b}) {
                    assertEquals(Set.of(onA, onB), exported(instance));
                }
                // a search on one replica and the page it returned fetched on the other: one view, one click
                String path = JSON.readTree(post(a, "/v1/search/acme", "{\"query\":\"change the port\"}").body())
                        .get(0).get("path").asText();
                assertEquals(200, post(b, "/v1/page/acme", "{\"path\":\"" + path + "\"}").statusCode());
                AnalyticsTest.awaitViews(b, 1);
                JsonNode views = JSON.readTree(get(a, "/v1/analytics/acme/views").body());
                assertEquals(JSON.readTree("{\"human\":0,\"ai\":1,\"total\":1}"), views.get("totals"));
                assertEquals(1, JSON.readTree(get(a, "/v1/analytics/acme/visitors").body()).get("totals")
                        .get("total").asLong());
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                JsonNode term; // the search, written by a's writer, may land after b's view
                do {
                    assertTrue(System.nanoTime() < deadline, "the search was not written");
                    Thread.sleep(50);
                    term = JSON.readTree(get(a, "/v1/analytics/acme/searches").body()).get("searches").path(0);
                } while (term.isMissingNode());
                assertEquals(1.0, term.get("ctr").asDouble(), term.toString());
                assertEquals(path, term.get("topClickedPage").asText());
            }
            Files.delete(unused);
        }
    }

    /**
     * Instance B holds a reader's rows in its writer (a long linger: its batch waits 8 s for more rows) while A
     * erases the reader: B's late batch must not bring them back, as A's erasure leaves a tombstone in the shared
     * store that B's insert honours, nor send them as events (B's go to a sink of the test's), nor count them
     * written; a row the reader makes after the erasure is kept, sent and counted.
     */
    @Test
    void anErasureOnOneInstanceHoldsForTheRowsAnotherStillHasQueued(@TempDir Path folder) throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        HttpServer sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        sink.createContext("/events", exchange -> {
            events.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        sink.start();
        try (PostgresServer postgres = PostgresServer.startOrSkip()) {
            Path unused = Files.createTempDirectory("records-unused");
            Map<String, String> properties = onPostgres(postgres, unused);
            Map<String, String> lingering = RecordEventsTest.withSink(folder, sink.getAddress().getPort());
            lingering.putAll(properties);
            lingering.put("assistant.records.linger-ms", "8000");
            try (ServiceInstance a = ServiceInstance.start(properties, http);
                    ServiceInstance b = ServiceInstance.start(lingering, http)) {
                for (int i = 0; i < 3; i++) {
                    thread(b.message(http, "acme", ServiceTest.ACME_KEY, body("fp-gone")));
                }
                thread(a.message(http, "acme", ServiceTest.ACME_KEY, body("fp-stays")));
                AnalyticsTest.awaitRows(a, "turns", "fp-stays", 1);
                assertEquals(0, AnalyticsTest.count(a, "turns", "fp-gone"), "B still holds the reader's rows");
                HttpResponse<String> erased = AnalyticsTest.erase(http, a, "fp-gone");
                assertEquals(200, erased.statusCode(), erased.body());
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (metric(b, "assistant_records_dropped_total{reason=\"erased\"") < 3) { // B's late batch
                    assertTrue(System.nanoTime() < deadline, "B did not try its batch");
                    Thread.sleep(100);
                }
                assertEquals(0, AnalyticsTest.count(a, "turns", "fp-gone"), "an erased reader's rows came back");
                assertEquals(1, AnalyticsTest.count(a, "turns", "fp-stays"), "another reader's row stays");
                assertEquals(0, metric(b, "assistant_records_written_total"), "B's batch landed no row");
                String after = thread(b.message(http, "acme", ServiceTest.ACME_KEY, body("fp-gone")));
                AnalyticsTest.awaitRows(a, "turns", "fp-gone", 1); // made after the erasure: kept
                String event = events.poll(30, TimeUnit.SECONDS);
                assertNotNull(event, "the row made after the erasure is sent");
                assertEquals(after, JSON.readTree(event).get("threadId").asText(), "an erased row was sent: " + event);
                assertEquals(1, metric(b, "assistant_records_written_total"));
                Thread.sleep(500);
                assertEquals(List.of(), List.copyOf(events), "events of rows the store does not hold");
            }
            Files.delete(unused);
        } finally {
            sink.stop(0);
        }
    }

    /**
     * B commits a reader's rows while its sink holds the event before them, so their events wait in B's queue; A
     * erases the reader: B learns of the erasure from the store and takes those events out of its queue before the
     * sink is let go. None of them leaves; another reader's does, and so does the reader's row made after.
     */
    @Test
    void anErasureOnOneInstanceTakesTheEventsAnotherStillHasQueued(@TempDir Path folder) throws Exception {
        try (RecordEventsTest.HeldSink sink = RecordEventsTest.HeldSink.start();
                PostgresServer postgres = PostgresServer.startOrSkip()) {
            Path unused = Files.createTempDirectory("records-unused");
            Map<String, String> properties = onPostgres(postgres, unused);
            Map<String, String> withEvents = RecordEventsTest.withSink(folder, sink.port());
            withEvents.putAll(properties);
            try (ServiceInstance a = ServiceInstance.start(properties, http);
                    ServiceInstance b = ServiceInstance.start(withEvents, http)) {
                RecordWriter writer = b.bean("recordWriter", RecordWriter.class);
                RecordEventsTest.queueBehindTheHeldEvent(writer, sink);
                AnalyticsTest.awaitRows(a, "turns", "fp-stays", 1);
                AnalyticsTest.awaitRows(a, "feedback", "fp-gone", 1);
                BlockingQueue<Exchange> queued = b.context().getEndpoint(RecordEvents.ENDPOINT, SedaEndpoint.class)
                        .getQueue();
                awaitSize(queued, 3, "B's events wait behind the held one");
                HttpResponse<String> erased = AnalyticsTest.erase(http, a, "fp-gone");
                assertEquals(200, erased.statusCode(), erased.body());
                awaitSize(queued, 1, "B still queues the erased reader's events");
                sink.letGo();
                RecordEventsTest.assertNoneOfTheErasedReadersEventsLeft(writer, "fp-gone", sink);
            }
            Files.delete(unused);
        }
    }

    private static void awaitSize(BlockingQueue<?> queue, int size, String failure) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (queue.size() != size) {
            assertTrue(System.nanoTime() < deadline, failure + ": " + queue.size() + " queued");
            Thread.sleep(100);
        }
    }

    /** An instance's properties with its records on the PostgreSQL (the data folder unused). */
    private static Map<String, String> onPostgres(PostgresServer postgres, Path unused) {
        Map<String, String> properties = AnalyticsTest.properties(unused);
        properties.put("assistant.records.jdbc-url", postgres.jdbcUrl());
        properties.put("assistant.records.username", PostgresServer.USER);
        return properties;
    }

    /** The sum of the instance's series whose line starts with {@code series} (a name, or a name and a label). */
    private double metric(ServiceInstance instance, String series) throws Exception {
        String metrics = http.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                + ServiceTest.managementPort(instance.context()) + "/observe/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return metrics.lines().filter(line -> line.startsWith(series))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    private HttpResponse<String> post(ServiceInstance instance, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(instance.uri(path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + ServiceTest.ACME_KEY)
                .timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(ServiceInstance instance, String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(instance.uri(path))
                .header("Authorization", "Bearer " + AnalyticsTest.ADMIN_KEY).timeout(Duration.ofSeconds(15))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response;
    }

    private static String body(String fp) {
        return ServiceTest.conversation(null, null, "How do I change the port?").replace("\"fp-test\"",
                "\"" + fp + "\"");
    }

    private static String thread(HttpResponse<String> answer) {
        assertEquals(200, answer.statusCode(), answer.body());
        return answer.headers().firstValue("X-Thread-Id").orElseThrow();
    }

    private Set<String> exported(ServiceInstance instance) throws Exception {
        JsonNode rows = JSON.readTree(get(instance, "/v1/analytics/acme/assistant").body()).get("conversations");
        Set<String> threads = new HashSet<>();
        rows.forEach(row -> threads.add(row.get("conversationId").asText()));
        assertTrue(rows.size() >= 2, rows.toString());
        return threads;
    }
}
