package dev.docsassistant.analytics;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the records on its own thread, in batches, so a request only puts a row in a bounded queue and never waits
 * on the database. A batch that fails is kept and tried again, up to {@code attempts} times with a growing pause;
 * then it is dropped. Each row gets a record id when queued, and the store inserts it only if absent, so a try the
 * database committed though it answered an error (a full disk) is not written twice. Every row not written is
 * counted: {@code assistant.records.dropped} by reason ({@code full}: the queue was full; {@code failed}: the
 * database refused it every time, less the rows it is found to hold all the same; {@code expired}: older than the
 * erasure hold; {@code erased}: its reader was erased while it was queued, here or on another instance;
 * {@code shutdown}: still queued when a stop's drain ended), and each failed write in
 * {@code assistant.records.write.failures}. {@code assistant.records.written} counts the rows the store holds, each
 * once, whichever try landed it.
 */
public class RecordWriter implements CamelContextAware, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RecordWriter.class);
    private static final long MAX_PAUSE_MS = 30_000;
    /** How long a stop waits for the queue to be written. */
    private static final long DRAIN_MS = 10_000;

    /** How often, at most, a writer whose events wait reads the erasures other instances made. */
    private static final long RECALL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final Duration RECALL_OVERLAP = Duration.ofSeconds(60);
    private final Records records;
    private final BlockingQueue<Records.Queued> queue;
    private final int batchSize;
    private final long lingerMs;
    private final int attempts;
    private final long firstPauseMs;
    private final Duration erasureHold;
    private final int maxErasures;
    /**
     * Held while the batch is filled or written and while a reader is erased, so no row of an erased reader, queued
     * or in a batch waiting to be tried again, lands after the erasure.
     */
    private final Object writing = new Object();
    /** The rows being written; the writer thread's, changed only while {@link #writing} is held. */
    private final List<Records.Queued> batch = new ArrayList<>();
    /**
     * The readers erased since the writer last took a row from the queue, which it does without the lock (it waits
     * there): a row it had just taken when an erasure ran is in neither the queue nor the batch, and is dropped here.
     */
    private final List<Predicate<Records.Queued>> erasedSinceTaken = new ArrayList<>();
    private final Thread thread;
    /** Erasures stamped before this were read from the store (the writer's thread only): see {@link #recall}. */
    private Instant recalledUpTo = Instant.now();
    private long lastRecall = System.nanoTime();
    private final boolean enabled;
    private final AtomicBoolean started = new AtomicBoolean();
    /** Rows dropped on a full queue, logged at most once a minute (a flood of them would flood the log). */
    private static final long FULL_LOG_NANOS = TimeUnit.MINUTES.toNanos(1);
    private final AtomicLong droppedFull = new AtomicLong();
    private final AtomicLong lastFullLog = new AtomicLong(System.nanoTime() - FULL_LOG_NANOS);
    private volatile boolean running = true;
    /** Set when a stop's drain ended: what the writer still holds is counted there, never again by the writer. */
    private volatile boolean abandoned;
    private CamelContext context;
    private volatile Meters meters;
    private RecordEvents events;
    private RecordsVacuum vacuum;

    private record Meters(Counter full, Counter failed, Counter expired, Counter erased, Counter failures,
            Counter written) {
    }

    /**
     * @param enabled      false keeps nothing (rows offered are let go, uncounted): the store of record is off
     * @param capacity     rows the queue holds; past it a row is dropped (counted)
     * @param batchSize    the most rows one transaction writes
     * @param lingerMs     how long the writer waits after a first row for more to share its transaction
     * @param attempts     how many times a batch is tried before it is dropped
     * @param firstPauseMs the pause after a first failure, doubled after each next one (at most 30 s)
     * @param erasureHoldHours how long an erasure's tombstone is kept; no row older than that is written
     * @param maxErasures  tombstones an organization may hold; past it an erasure is refused
     */
    public RecordWriter(Records records, boolean enabled, int capacity, int batchSize, long lingerMs, int attempts,
            long firstPauseMs, int erasureHoldHours, int maxErasures) {
        this.records = records;
        this.enabled = enabled;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.batchSize = batchSize;
        this.lingerMs = lingerMs;
        this.attempts = attempts;
        this.firstPauseMs = firstPauseMs;
        this.erasureHold = Duration.ofHours(erasureHoldHours);
        this.maxErasures = maxErasures;
        thread = new Thread(this::run, "records-writer");
        thread.setDaemon(true);
        // Under saturation the answers come first: where the JVM maps Java priorities to the OS's (Linux:
        // -XX:ThreadPriorityPolicy=1, the guide's deployment page), the writer runs at a lower one.
        thread.setPriority(Thread.MIN_PRIORITY);
    }

    /** Queues a row without waiting; a full queue drops it (counted). */
    public void offer(Records.Row row) {
        if (!enabled) {
            return;
        }
        if (!started.get() && started.compareAndSet(false, true)) {
            thread.start(); // on first use: Camel creates YAML beans twice at start-up, and one is never used
        }
        if (!queue.offer(new Records.Queued(UUID.randomUUID().toString(), Instant.now(), row))) {
            meters().full().increment();
            long now = System.nanoTime();
            long dropped = droppedFull.incrementAndGet();
            long last = lastFullLog.get();
            if (now - last >= FULL_LOG_NANOS && lastFullLog.compareAndSet(last, now)) {
                LOG.warn("Dropped {} records (in all) as the writer's queue was full ({} rows, "
                        + "assistant.records.queue-size): the store of record is not keeping up", dropped,
                        queue.remainingCapacity() + queue.size());
            }
        }
    }

    /** What vacuums the store after an erasure (wiring.yaml sets it; closed before the store). */
    public void setVacuum(RecordsVacuum vacuum) {
        this.vacuum = vacuum;
    }

    /** Where each committed row goes as an event (wiring.yaml sets it before the first row). */
    public void setEvents(RecordEvents events) {
        this.events = events;
    }

    Records records() {
        return records;
    }

    /** Rows waiting to be written. */
    public int pending() {
        return queue.size();
    }

    /**
     * Erases the reader's rows, those still queued first, in the database, where a tombstone keeps every instance's
     * writer from writing a row of the reader made before now; the number of rows erased.
     */
    int erase(String organizationId, String domainId, String fp) throws SQLException {
        synchronized (writing) {
            int[] removed = {0};
            Predicate<Records.Row> reader = row -> row.organizationId().equals(organizationId)
                    && row.domainId().equals(domainId) && fp.equals(row.fp());
            Predicate<Records.Queued> readers = queued -> reader.test(queued.row());
            Predicate<Records.Queued> counted = queued -> readers.test(queued) && ++removed[0] > 0;
            erasedSinceTaken.add(readers);
            batch.removeIf(counted);
            queue.removeIf(counted);
            if (removed[0] > 0) {
                meters().erased().increment(removed[0]);
            }
            if (events != null) {
                events.erase(context, reader);
            }
            Instant now = Instant.now();
            int erased = records.erase(organizationId, domainId, fp, now, now.minus(erasureHold), maxErasures);
            if (vacuum != null) {
                vacuum.afterErasure(registry());
            }
            return removed[0] + erased;
        }
    }

    private void run() {
        while (!abandoned && (running || !queue.isEmpty())) {
            try {
                synchronized (writing) {
                    erasedSinceTaken.clear();
                }
                recall();
                Records.Queued first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                synchronized (writing) {
                    if (erasedSinceTaken.stream().noneMatch(erased -> erased.test(first))) {
                        batch.add(first);
                    } else {
                        meters().erased().increment();
                    }
                    queue.drainTo(batch, batchSize - batch.size());
                }
                // A transaction per batch, not per answer: at 2,000 answers/s, rows written as they came cost each
                // answer 12 % more CPU through openai, in commits. The rows waiting stay in the queue, where an
                // erasure finds them.
                if (batch.size() < batchSize && lingerMs > 0 && running) {
                    TimeUnit.MILLISECONDS.sleep(lingerMs);
                    synchronized (writing) {
                        queue.drainTo(batch, batchSize - batch.size());
                    }
                }
                if (batch.isEmpty()) {
                    continue;
                }
                writeWithRetries();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                synchronized (writing) {
                    batch.clear();
                }
            }
        }
    }

    /**
     * On a shared store, takes out of the event queue the events of rows another instance's erasure covers, so an
     * erasure anywhere reaches every replica's waiting events within {@link #RECALL_NANOS}. The store is asked only
     * while events wait, at most that often. Each read looks {@link #RECALL_OVERLAP} further back than the last
     * (clocks differ; an erasure commits after it is stamped); a read that fails is made again whole.
     */
    private void recall() {
        if (events == null || records.embedded() || System.nanoTime() - lastRecall < RECALL_NANOS
                || events.queued(context) == 0) {
            return;
        }
        lastRecall = System.nanoTime();
        Instant now = Instant.now();
        try {
            List<Records.Erasure> erasures = records.erasedSince(recalledUpTo.minus(RECALL_OVERLAP));
            recalledUpTo = now;
            if (!erasures.isEmpty()) {
                synchronized (writing) {
                    events.erase(context, row -> erasures.stream().anyMatch(erasure -> erasure.covers(row)));
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debug("Reading the erasures of other instances failed: {}", e.toString());
        }
    }

    private void writeWithRetries() throws InterruptedException {
        long pause = firstPauseMs;
        for (int attempt = 1; ; attempt++) {
            try {
                synchronized (writing) {
                    dropExpired();
                    List<Records.Queued> landed = records.write(batch);
                    landed(landed, batch.size() - landed.size());
                }
                return;
            } catch (SQLException | RuntimeException e) {
                meters().failures().increment();
                if (abandoned) {
                    return;
                }
                if (attempt >= attempts || !running) {
                    int lost;
                    synchronized (writing) {
                        List<Records.Queued> landed = storedOfBatch();
                        landed(landed, 0);
                        lost = batch.size() - landed.size();
                    }
                    meters().failed().increment(lost);
                    LOG.warn("Dropped {} records the database refused {} times: {}", lost, attempt, e.toString());
                    return;
                }
                LOG.debug("Writing {} records failed, trying again in {} ms: {}", batch.size(), pause, e.toString());
                TimeUnit.MILLISECONDS.sleep(pause);
                pause = Math.min(MAX_PAUSE_MS, pause * 2);
            }
        }
    }

    /** Drops (counted) the batch's rows older than the erasure hold: a tombstone that guards them may be gone. */
    private void dropExpired() {
        Instant oldest = Instant.now().minus(erasureHold);
        int before = batch.size();
        batch.removeIf(queued -> queued.queuedAt().isBefore(oldest));
        if (batch.size() < before) {
            meters().expired().increment(before - batch.size());
            LOG.warn("Dropped {} records queued more than {} (assistant.records.erasure-hold-hours) ago",
                    before - batch.size(), erasureHold);
        }
    }

    /**
     * Counts the rows of the batch that the store holds: in {@code assistant.records.written}, each once (the batch is
     * done with), and the rows it did not keep as its reader was erased; and offers them as events, all while
     * {@link #writing} is held, so an erasure after it finds their events queued.
     */
    private void landed(List<Records.Queued> landed, int erased) {
        meters().written().increment(landed.size());
        if (erased > 0) {
            meters().erased().increment(erased);
        }
        if (events != null && !landed.isEmpty()) {
            events.offer(context, landed.stream().map(Records.Queued::row).toList());
        }
    }

    /**
     * Of the batch its last try failed, the rows the store holds all the same (a failed commit may have been
     * written); none when the store cannot even say.
     */
    private List<Records.Queued> storedOfBatch() {
        try {
            Set<String> stored = records.stored(batch.stream().map(Records.Queued::recordId).toList());
            return batch.stream().filter(queued -> stored.contains(queued.recordId())).toList();
        } catch (SQLException | RuntimeException e) {
            return List.of();
        }
    }

    @Override
    public void setCamelContext(CamelContext camelContext) {
        this.context = camelContext;
    }

    @Override
    public CamelContext getCamelContext() {
        return context;
    }

    private Meters meters() {
        Meters found = meters;
        if (found == null) {
            synchronized (this) {
                found = meters;
                if (found == null) {
                    MeterRegistry registry = registry();
                    Gauge.builder("assistant.records.pending", queue, BlockingQueue::size)
                            .description("Records waiting to be written to the store of record").register(registry);
                    meters = found = new Meters(dropped(registry, "full"), dropped(registry, "failed"),
                            dropped(registry, "expired"), dropped(registry, "erased"),
                            Counter.builder("assistant.records.write.failures")
                                    .description("Writes of a batch of records that failed (each is retried)")
                                    .register(registry),
                            Counter.builder("assistant.records.written")
                                    .description("Records written to the store of record").register(registry));
                }
            }
        }
        return found;
    }

    private MeterRegistry registry() {
        MeterRegistry registry = context == null ? null
                : context.getRegistry().lookupByNameAndType("metricsRegistry", MeterRegistry.class);
        return registry != null ? registry : new SimpleMeterRegistry();
    }

    private static Counter dropped(MeterRegistry registry, String reason) {
        return Counter.builder("assistant.records.dropped")
                .description("Records never written: the queue was full, or the database refused them every time")
                .tag("reason", reason).register(registry);
    }

    /**
     * At start-up: fails (the service does not start) when records are on and the store cannot be reached or
     * written, naming the folder or URL (without a password) and the property; called by the bean's
     * {@code initMethod}.
     */
    public void checkStore() {
        if (enabled) {
            records.check();
        }
    }

    /**
     * Writes what is queued (within the retry bound, at most {@link #DRAIN_MS}), then closes the store: the writer
     * owns its closing, so a stop never closes the pool under rows still queued. Rows left unwritten are counted
     * ({@code reason="shutdown"}) and logged, once: the writer, woken from a retry's pause, counts none of them.
     */
    @Override
    public void close() throws InterruptedException {
        running = false;
        try {
            if (started.get()) {
                thread.join(DRAIN_MS);
                abandoned = thread.isAlive();
                int left = queue.size() + (abandoned ? batch.size() : 0);
                thread.interrupt(); // out of a retry's pause: its rows are counted here
                if (left > 0) {
                    dropped(registry(), "shutdown").increment(left);
                    LOG.error("Dropped {} records still unwritten {} ms after the service began to stop", left,
                            DRAIN_MS);
                }
            }
        } finally {
            if (vacuum != null) {
                vacuum.close();
            }
            records.close();
        }
    }
}
