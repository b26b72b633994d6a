package dev.docsassistant;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.docsassistant.analytics.Records;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded store of record on its disk: an erased reader's text is not left in the files, and a disk that fills
 * up and recovers loses nothing, doubles nothing, and counts as dropped only what was not written.
 */
class RecordsOnDiskTest {

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void anErasedReadersTextIsNotInTheFilesAfterAStop(@TempDir Path dir) throws Exception {
        String gone = "zqxgone" + UUID.randomUUID().toString().replace("-", "");
        String kept = "zqxkept" + UUID.randomUUID().toString().replace("-", "");
        try (ServiceInstance service = ServiceInstance.start(AnalyticsTest.properties(dir), http)) {
            ask(service, "fp-secret", "How do I change the port for " + gone + "?");
            ask(service, "fp-other", "How do I change the port for " + kept + "?");
            AnalyticsTest.awaitRows(service, "turns", "fp-secret", 1);
            AnalyticsTest.awaitRows(service, "turns", "fp-other", 1);
            HttpResponse<String> erased = AnalyticsTest.erase(http, service, "fp-secret");
            assertEquals(200, erased.statusCode(), erased.body());
        }
        String files = bytesOf(dir);
        assertTrue(files.contains(kept), "the scan reads what the files hold: a kept reader's question is there");
        assertFalse(files.contains(gone), "the erased reader's question is still in the files");
    }

    /**
     * On a real PostgreSQL, what the vacuum after an erasure leaves of the erased text in the relation files (after
     * a checkpoint; the write-ahead log is not looked at, it keeps the text until its segments are reused):
     * {@code plain} leaves none of a row another row was written after on its page, but a row last written on its
     * page leaves its bytes in the page's free space; {@code full} leaves none. Without a vacuum both stay.
     */
    @Test
    void onPostgresTheVacuumAfterAnErasureTakesTheErasedTextOutOfTheTables() throws Exception {
        try (PostgresServer postgres = PostgresServer.startOrSkip()) {
            Path unused = Files.createTempDirectory("records-unused");
            for (String mode : List.of("plain", "full")) {
                String middle = "zqxmiddle" + UUID.randomUUID().toString().replace("-", "");
                String last = "zqxlast" + UUID.randomUUID().toString().replace("-", "");
                Map<String, String> properties = AnalyticsTest.properties(unused);
                properties.put("assistant.records.jdbc-url", postgres.jdbcUrl());
                properties.put("assistant.records.username", PostgresServer.USER);
                properties.put("assistant.records.vacuum", mode);
                try (ServiceInstance service = ServiceInstance.start(properties, http)) {
                    ask(service, "fp-kept", "How do I change the port, " + mode + " before?");
                    ask(service, "fp-secret", "How do I change the port for " + middle + "?");
                    ask(service, "fp-kept", "How do I change the port, " + mode + " after?");
                    ask(service, "fp-secret", "How do I change the port for " + last + "?");
                    AnalyticsTest.awaitCount(service, "SELECT COUNT(*) FROM turns WHERE question LIKE ?", "%" + last
                            + "%", 1);
                    HttpResponse<String> erased = AnalyticsTest.erase(http, service, "fp-secret");
                    assertEquals(200, erased.statusCode(), erased.body());
                    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                    while (metrics(service).lines().noneMatch(line -> line.startsWith(
                            "assistant_records_vacuums_total{result=\"done\"}"))) {
                        assertTrue(System.nanoTime() < deadline, "no vacuum after the erasure (" + mode + "): "
                                + metrics(service).lines().filter(line -> line.contains("vacuum")).toList());
                        Thread.sleep(100);
                    }
                    try (Connection connection = service.bean("records", Records.class).connection();
                            Statement checkpoint = connection.createStatement()) {
                        checkpoint.execute("CHECKPOINT"); // the pages as vacuumed, in the files
                    }
                    String files = bytesOf(postgres.dataDir().resolve("base"));
                    assertTrue(files.contains(mode + " after?"), "the scan reads the files: a kept question is there");
                    assertFalse(files.contains(middle), "a row written before another is in the files (" + mode + ")");
                    assertEquals(mode.equals("plain"), files.contains(last), "the row last written on its page, "
                            + "after a " + mode + " vacuum");
                }
            }
            Files.delete(unused);
        }
    }

    /**
     * The data folder a 8 MiB tmpfs, filled up while 30 feedbacks are written, then freed: each is stored once and
     * none is counted dropped (the writer's tries outlast the outage). Needs root (mount); skipped otherwise.
     */
    @Test
    void aDiskThatFillsUpAndRecoversStoresEachRecordOnceAndDropsNone(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir.toString()),
                "cannot mount a tmpfs (needs root): the full-disk test skipped");
        try {
            Map<String, String> properties = AnalyticsTest.properties(dir);
            properties.put("assistant.records.write-attempts", "30");
            properties.put("assistant.records.retry-pause-ms", "100");
            properties.put("assistant.records.linger-ms", "0");
            try (ServiceInstance service = ServiceInstance.start(properties, http)) {
                feedback(service, "fp-before");
                AnalyticsTest.awaitRows(service, "feedback", "fp-before", 1);
                try (Connection connection = service.bean("records", Records.class).connection();
                        Statement checkpoint = connection.createStatement()) {
                    checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)"); // the next write needs new blocks
                }
                Path filler = dir.resolve("filler");
                fill(filler);
                for (int i = 0; i < 30; i++) {
                    feedback(service, "fp-full");
                }
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (metric(service, "assistant_records_write_failures_total") < 3) {
                    assertTrue(System.nanoTime() < deadline, "the writes did not fail on the full disk");
                    Thread.sleep(50);
                }
                Files.delete(filler);
                AnalyticsTest.awaitRows(service, "feedback", "fp-full", 30);
                Thread.sleep(1_000); // a doubled write would land now
                assertEquals(30, AnalyticsTest.count(service, "feedback", "fp-full"), "each feedback stored once");
                assertEquals(0, metric(service, "assistant_records_dropped_total"), "none was lost");
                assertEquals(31, metric(service, "assistant_records_written_total"), "each counted written once");
            }
        } finally {
            run("umount", "-l", dir.toString());
        }
    }

    /** Writes the file until the file system is full. */
    private static void fill(Path filler) throws IOException {
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
                out.flush();
            }
        } catch (IOException full) {
            assertTrue(String.valueOf(full.getMessage()).contains("space"), full.toString());
        }
    }

    private void ask(ServiceInstance service, String fp, String question) throws Exception {
        HttpResponse<String> answer = service.message(http, "acme", ServiceTest.ACME_KEY,
                ServiceTest.conversation(null, null, question).replace("\"fp-test\"", "\"" + fp + "\""));
        assertEquals(200, answer.statusCode(), answer.body());
    }

    private void feedback(ServiceInstance service, String fp) throws Exception {
        HttpResponse<String> sent = http.send(HttpRequest.newBuilder(service.uri("/v1/assistant/acme/feedback/page"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"fp\":\"" + fp + "\",\"path\":\"/quickstart\","
                        + "\"helpful\":false,\"comment\":\"" + "a comment long enough to take room ".repeat(40)
                        + "\"}"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + ServiceTest.ACME_KEY)
                .timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, sent.statusCode(), sent.body());
    }

    /** The sum of the metric's series on the instance's management port. */
    private double metric(ServiceInstance service, String name) throws Exception {
        return metrics(service).lines().filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    /** The instance's metrics, as Prometheus scrapes them. */
    private String metrics(ServiceInstance service) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + ServiceTest.managementPort(service.context()) + "/observe/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Every file's bytes under the folder, as ISO-8859-1 text (one char a byte). */
    private static String bytesOf(Path dir) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                all.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
            }
        }
        return all.toString();
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    }
}
