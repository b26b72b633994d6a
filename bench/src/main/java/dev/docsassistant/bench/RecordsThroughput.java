package dev.docsassistant.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import com.sun.management.OperatingSystemMXBean;
import dev.docsassistant.analytics.RecordWriter;
import dev.docsassistant.analytics.Records;

/**
 * Rows per second the store of record sustains, and the CPU each row costs the process: the service's own writer
 * (one thread, batches of {@code assistant.records.batch-size}, default 500) fed turns as fast as its queue (default
 * 10,000) takes them. A first quarter of the rows warms up (the schema's migration, the JIT) untimed; the rest is
 * timed until the queue is empty and the writer has stopped, then counted in the database. The feeder parks while
 * the queue is nearly full rather than spinning on it (a spin takes the queue's lock and a core from the writer).
 * Usage: {@code RecordsThroughput [rows] [jdbc-url [user]]}; without a URL, the embedded database in a new temporary
 * folder.
 */
public final class RecordsThroughput {

    private static final String ANSWER =
            "An answer of about the length the extractive model gives, citing a page or two. ".repeat(8);

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        String url = args.length > 1 ? args[1] : "";
        String user = args.length > 2 ? args[2] : "";
        Path folder = Files.createTempDirectory("records-bench");
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (Records records = new Records(url, user, "", folder.toString(), 4, 5_000)) {
            RecordWriter writer = new RecordWriter(records, true, 10_000, 500, 100, 5, 500, 24, 100_000);
            int warmup = rows / 4;
            feed(writer, 0, warmup);
            drain(writer);
            long cpu = os.getProcessCpuTime();
            long start = System.nanoTime();
            feed(writer, warmup, rows);
            drain(writer);
            writer.close();
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuPerRow = (os.getProcessCpuTime() - cpu) / 1e3 / (rows - warmup);
            long written = count(records);
            System.out.printf("%s: %d rows in %.2f s, %.0f rows/s, %.1f us of process CPU a row (%d in the table)%n",
                    url.isEmpty() ? "embedded" : url, rows - warmup, seconds, (rows - warmup) / seconds, cpuPerRow,
                    written);
        }
    }

    private static void feed(RecordWriter writer, int from, int to) {
        for (int i = from; i < to; i++) {
            while (writer.pending() > 9_000) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            Instant now = Instant.now();
            writer.offer(new Records.Turn("bench", "bench", "thr_" + (i / 3), "msg_" + i, "fp_" + (i % 1000), now, now,
                    "How do I change the port, question " + i + "?", ANSWER, "answer",
                    "[{\"title\":\"Configuration\",\"url\":\"https://docs.example.com/configuration\"}]", "answered",
                    "web", "Guides", "https://docs.example.com/quickstart"));
        }
    }

    /** Until the queue is empty (the last batch may still be in the writer's hands: close() waits for it). */
    private static void drain(RecordWriter writer) throws InterruptedException {
        while (writer.pending() > 0) {
            Thread.sleep(10);
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
