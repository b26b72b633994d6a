package dev.docsassistant.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;

import dev.docsassistant.analytics.RecordWriter;
import dev.docsassistant.analytics.Records;

/**
 * Rows per second the store of record sustains: the service's own writer (one thread, batches of
 * {@code assistant.records.batch-size}, default 500) fed turns as fast as its queue (default 10,000) takes them,
 * timed until the database holds them all. Usage: {@code RecordsThroughput [rows] [jdbc-url [user]]}; without a URL,
 * the embedded H2 database in a new temporary folder.
 */
public final class RecordsThroughput {

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        String url = args.length > 1 ? args[1] : "";
        String user = args.length > 2 ? args[2] : "";
        Path folder = Files.createTempDirectory("records-bench");
        try (Records records = new Records(url, user, "", folder.toString(), 4, 5_000)) {
            RecordWriter writer = new RecordWriter(records, true, 10_000, 500, 5, 500);
            String answer = "An answer of about the length the extractive model gives, citing a page or two. ".repeat(8);
            long start = System.nanoTime();
            for (int i = 0; i < rows; i++) {
                while (writer.pending() > 9_000) {
                    Thread.onSpinWait();
                }
                Instant now = Instant.now();
                writer.offer(new Records.Turn("bench", "bench", "thr_" + (i / 3), "msg_" + i, "fp_" + (i % 1000), now,
                        now, "How do I change the port, question " + i + "?", answer, "answer",
                        "[{\"title\":\"Configuration\",\"url\":\"https://docs.example.com/configuration\"}]",
                        "answered", "web", "Guides", "https://docs.example.com/quickstart"));
            }
            long written;
            do {
                Thread.sleep(20);
                written = count(records);
            } while (written < rows);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("%s: %d rows in %.2f s, %.0f rows/s%n", url.isEmpty() ? "embedded H2" : url, rows,
                    seconds, rows / seconds);
            writer.close();
        }
    }

    private static long count(Records records) throws Exception {
        try (Connection connection = records.connection(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM turns")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
