package dev.docsassistant.analytics;

import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After an erasure on PostgreSQL, a {@code VACUUM} of the tables it deleted from, so the erased text leaves the
 * relation files (SQLite needs none: its secure_delete overwrites deleted content). On a thread of its own, never the
 * answers' nor the writer's; erasures that come while one is due share it; at most one starts in any
 * {@code seconds}, and each is cancelled past {@code seconds}. Counted in {@code assistant.records.vacuums} by result.
 * <p>
 * {@code plain} ({@code VACUUM}) takes no lock that stops reads or writes; it removes a dead row's bytes where it
 * compacts the page over them, but a row that was the last written on its page leaves its bytes in the page's free
 * space until a later row is written there. {@code full} ({@code VACUUM FULL}) rewrites the tables, leaving none of
 * the erased bytes in them, but holds an exclusive lock meanwhile: the writer (its queue fills) and the analytics
 * requests wait for it. Neither reaches the write-ahead log (pg_wal), its archives or backups.
 */
public class RecordsVacuum implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RecordsVacuum.class);

    private final Records records;
    private final String mode;
    private final long periodNanos;
    private final AtomicBoolean due = new AtomicBoolean();
    /** Made at the first vacuum asked for: a store that never erases, or SQLite, holds no thread. */
    private ScheduledExecutorService thread;
    /** When the last vacuum started (long ago at first). */
    private volatile long lastStart = System.nanoTime() - Long.MAX_VALUE / 2;
    private volatile MeterRegistry registry;

    /**
     * @param mode    {@code off}, {@code plain} or {@code full}
     * @param seconds the least time between two vacuums' starts, and the most one may take
     */
    public RecordsVacuum(Records records, String mode, int seconds) {
        this.records = records;
        this.mode = mode == null ? "" : mode.trim().toLowerCase(Locale.ROOT);
        if (!this.mode.equals("off") && !this.mode.equals("plain") && !this.mode.equals("full")) {
            throw new IllegalArgumentException("assistant.records.vacuum must be off, plain or full, not '" + mode
                    + "'");
        }
        if (seconds < 1) {
            throw new IllegalArgumentException("assistant.records.vacuum-seconds must be at least 1");
        }
        this.periodNanos = TimeUnit.SECONDS.toNanos(seconds);
    }

    /**
     * An erasure committed: a vacuum is due, now or when the last one's period is over; counted in the writer's
     * {@code registry}.
     */
    synchronized void afterErasure(MeterRegistry registry) {
        if (mode.equals("off") || records.embedded() || !due.compareAndSet(false, true)) {
            return;
        }
        this.registry = registry;
        if (thread == null) {
            thread = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread vacuum = new Thread(task, "records-vacuum");
                vacuum.setDaemon(true);
                vacuum.setPriority(Thread.MIN_PRIORITY);
                return vacuum;
            });
        }
        thread.schedule(this::vacuum, Math.max(0, lastStart + periodNanos - System.nanoTime()),
                TimeUnit.NANOSECONDS);
    }

    private void vacuum() {
        due.set(false); // an erasure from now on asks for another
        long started = System.nanoTime();
        try {
            records.vacuum(mode.equals("full"), (int) TimeUnit.NANOSECONDS.toSeconds(periodNanos));
            counter("done").increment();
            LOG.info("Vacuumed the records after an erasure ({}) in {} ms", mode,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        } catch (SQLException | RuntimeException e) {
            counter("failed").increment();
            LOG.warn("Could not vacuum the records after an erasure ({}): {}", mode, e.toString());
        } finally {
            lastStart = started;
        }
    }

    private Counter counter(String result) {
        return Counter.builder("assistant.records.vacuums")
                .description("Vacuums of the records after an erasure (PostgreSQL), by result").tag("result", result)
                .register(registry);
    }

    /** Stops the vacuum thread (one running is cancelled when the store's pool closes). */
    @Override
    public synchronized void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}
