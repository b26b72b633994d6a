package dev.docsassistant.analytics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
        synchronized void write(List<Queued> batch) throws SQLException {
            super.write(batch);
            batches.add(batch.size());
            batch.forEach(row -> rows.countDown());
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
}
