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
        synchronized void write(List<Row> batch) throws SQLException {
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

    /** A first row written: the database created, so the rows after it find the writer waiting for them. */
    private static void created(RecordWriter writer, CountedRecords records) throws InterruptedException {
        writer.offer(search("the first"));
        for (int i = 0; i < 500 && records.batches().isEmpty(); i++) {
            Thread.sleep(10);
        }
    }

    @Test
    void rowsComingWithinTheLingerShareATransaction(@TempDir Path dir) throws Exception {
        CountedRecords records = new CountedRecords(dir, 51);
        RecordWriter writer = new RecordWriter(records, true, 1000, 500, 2000, 1, 10);
        try {
            created(writer, records);
            for (int i = 0; i < 50; i++) { // one at a time, as answers end, 2 ms apart: about 100 ms in all, well within the linger
                writer.offer(search("question " + i));
                Thread.sleep(2);
            }
            assertTrue(records.rows.await(10, TimeUnit.SECONDS));
            // the first row's, then one or two: without the linger the writer wakes for each row, tens of them
            assertTrue(records.batches().size() <= 3, "transactions: " + records.batches());
        } finally {
            writer.close();
            records.close();
        }
    }

    @Test
    void withoutALingerEachRowMayBeItsOwnTransaction(@TempDir Path dir) throws Exception {
        CountedRecords records = new CountedRecords(dir, 21);
        RecordWriter writer = new RecordWriter(records, true, 1000, 500, 0, 1, 10);
        try {
            created(writer, records);
            for (int i = 0; i < 20; i++) {
                writer.offer(search("question " + i));
                Thread.sleep(20);
            }
            assertTrue(records.rows.await(10, TimeUnit.SECONDS));
            assertTrue(records.batches().size() > 3, "transactions: " + records.batches());
            assertEquals(21, records.batches().stream().mapToInt(Integer::intValue).sum());
        } finally {
            writer.close();
            records.close();
        }
    }
}
