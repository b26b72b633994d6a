package dev.docsassistant.analytics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer's batches: rows that come close together share a transaction. */
class RecordWriterTest {

    /** The embedded store, counting the transactions the writer asks of it. */
    private static final class CountedRecords extends Records {
        final List<Integer> batches = new ArrayList<>();
        final CountDownLatch rows;

        CountedRecords(Path dir, int rows) {
            super("", null, null, dir.toString(), 2, 2000);
            this.rows = new CountDownLatch(rows);
        }

        @Override
        synchronized List<Queued> write(List<Queued> batch) throws SQLException {
            List<Queued> landed = super.write(batch);
            batches.add(batch.size());
            batch.forEach(row -> rows.countDown());
            return landed;
        }

        synchronized List<Integer> batches() {
            return List.copyOf(batches);
        }
    }

    private static Records.Search search(String query) {
        return new Records.Search("acme", "docs", query, Instant.now());
    }

    /**
     * The transactions a writer lingering {@code lingerMs} takes for a first row (the database created), then {@code
     * rows} more offered one at a time {@code apartMs} apart, as answers end.
     */
    private static List<Integer> batchesOf(Path dir, long lingerMs, int rows, long apartMs) throws Exception {
        CountedRecords records = new CountedRecords(dir, rows + 1);
        RecordWriter writer = new RecordWriter(records, true, 1000, 500, lingerMs, 1, 10, 24, 100);
        try {
            writer.offer(search("the first"));
            for (int i = 0; i < 500 && records.batches().isEmpty(); i++) {
                Thread.sleep(10);
            }
            for (int i = 0; i < rows; i++) {
                writer.offer(search("question " + i));
                Thread.sleep(apartMs);
            }
            assertTrue(records.rows.await(10, TimeUnit.SECONDS));
            return records.batches();
        } finally {
            writer.close();
            records.close();
        }
    }

    @Test
    void rowsComingWithinTheLingerShareATransaction(@TempDir Path dir) throws Exception {
        // 50 rows 2 ms apart, about 100 ms in all, well within the linger: the first row's transaction, then one or
        // two; without the linger the writer wakes for each row, tens of them
        List<Integer> batches = batchesOf(dir, 2000, 50, 2);
        assertTrue(batches.size() <= 3, "transactions: " + batches);
    }

    @Test
    void withoutALingerEachRowMayBeItsOwnTransaction(@TempDir Path dir) throws Exception {
        List<Integer> batches = batchesOf(dir, 0, 20, 20);
        assertTrue(batches.size() > 3, "transactions: " + batches);
        assertEquals(21, batches.stream().mapToInt(Integer::intValue).sum());
    }

    /** A batch tried again (its first try committed though it failed, say) stores each row once. */
    @Test
    void aRowWrittenAgainIsStoredOnce(@TempDir Path dir) throws Exception {
        Records records = new Records("", null, null, dir.toString(), 2, 2000);
        try {
            Records.Queued twice = new Records.Queued("rec-1", Instant.now(), search("twice"));
            records.write(List.of(twice));
            records.write(List.of(twice, new Records.Queued("rec-2", Instant.now(), search("once"))));
            assertEquals(Set.of("rec-1", "rec-2"), records.stored(List.of("rec-1", "rec-2", "rec-3")));
            try (var connection = records.connection();
                    var rows = connection.createStatement().executeQuery("SELECT COUNT(*) FROM searches")) {
                rows.next();
                assertEquals(2, rows.getInt(1));
            }
        } finally {
            records.close();
        }
    }

    /**
     * A stop while a batch waits out a long retry pause (the database down) counts its rows dropped once, at the
     * stop: the writer, after the pool is closed, does not count them again as refused.
     */
    @Test
    void rowsUnwrittenAtAStopAreCountedOnce(@TempDir Path dir) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DefaultCamelContext context = new DefaultCamelContext();
        context.getRegistry().bind("metricsRegistry", registry);
        Records down = new Records("", null, null, dir.toString(), 2, 2000) {
            @Override
            List<Queued> write(List<Queued> batch) throws SQLException {
                throw new SQLException("the database is down");
            }
        };
        RecordWriter writer = new RecordWriter(down, true, 100, 500, 0, 100, 11_000, 24, 100);
        writer.setCamelContext(context);
        for (int i = 0; i < 3; i++) {
            writer.offer(search("question " + i));
        }
        Thread.sleep(500); // the batch failed once and waits 11 s, past the stop's 10 s drain
        writer.close();
        Thread.sleep(2_000); // past the pause: a writer still there would try again and fail
        assertEquals(3.0, registry.find("assistant.records.dropped").counters().stream()
                .mapToDouble(Counter::count).sum(), registry.getMetersAsString());
        context.close();
    }
}
