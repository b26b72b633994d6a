package dev.docsassistant.store;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the service does while Redis cannot be reached: go on with this instance's own in-memory state
 * ({@code open}: quotas are then counted per instance) or refuse with 503 and {@code Retry-After} ({@code closed}).
 * Once a call fails, Redis is left alone for {@link #PROBE_INTERVAL}; then one call at a time probes it while the
 * others go on without it, so a Redis that hangs costs one command timeout per interval, not one per call or per
 * request in flight. Each failure, fallback and refusal is counted (the store's metrics); failures are logged at the
 * first and then at most once per report interval with how many failed since, so an outage or a Redis refusing
 * writes (out of memory) stays in the log for as long as it lasts; the recovery is logged once.
 */
public final class StoreOutage {

    /** How long a refused client should wait: about the time Lettuce needs to notice Redis is back. */
    private static final long RETRY_AFTER_SECONDS = 5;

    private static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(StoreOutage.class);

    private final boolean failOpen;
    private final String store;
    private final long reportNanos;
    private final AtomicBoolean down = new AtomicBoolean();
    /** Held by the one call that probes Redis once it has failed. */
    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile long nextProbeNanos;
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong fallbacks = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();
    /** Guarded by this: what the log said last. */
    private boolean failingReported;
    private long nextReportNanos;
    private long failuresReported;

    /** @param report how often, at most, repeated failures are logged again */
    public StoreOutage(String whenUnreachable, String store, Duration report) {
        this.failOpen = switch (whenUnreachable.trim()) {
            case "open" -> true;
            case "closed" -> false;
            default -> throw new IllegalArgumentException(
                    "assistant.redis.when-unreachable must be 'open' or 'closed', not '" + whenUnreachable + "'");
        };
        this.store = store;
        this.reportNanos = report.toNanos();
    }

    /** The shared answer, or while the store is unreachable, the local one (open) or a 503 (closed). */
    public <T> T call(Supplier<T> shared, Supplier<T> local) {
        boolean probe = false;
        if (down.get() && (System.nanoTime() - nextProbeNanos < 0 || !(probe = probing.compareAndSet(false, true)))) {
            return degraded(local);
        }
        T result;
        try {
            result = shared.get();
        } catch (RedisException e) {
            failed(e);
            return degraded(local);
        } finally {
            if (probe) {
                probing.set(false);
            }
        }
        if (down.compareAndSet(true, false)) {
            recovered();
        }
        return result;
    }

    private void failed(RedisException e) {
        failures.incrementAndGet();
        nextProbeNanos = System.nanoTime() + PROBE_INTERVAL.toNanos();
        down.set(true);
        report(e);
    }

    /** The first failure, then one line per report interval at most, however often Redis flips between states. */
    private synchronized void report(RedisException e) {
        long now = System.nanoTime();
        if (failingReported && now - nextReportNanos < 0) {
            return;
        }
        long failed = failures.get();
        // An error reply (CROSSSLOT, READONLY, OOM…) is a configuration problem, not a network one: say which
        LOG.warn("{} {} ({}); {} call(s) failed since the last report; {}", store,
                e instanceof RedisCommandExecutionException ? "answered with an error" : "is unreachable",
                e.getMessage(), failed - failuresReported,
                failOpen ? "going on with this instance's own counters and threads" : "refusing with 503");
        failuresReported = failed;
        failingReported = true;
        nextReportNanos = now + reportNanos;
    }

    private synchronized void recovered() {
        if (failingReported) {
            LOG.info("{} is reachable again", store);
            failingReported = false;
        }
    }

    private <T> T degraded(Supplier<T> local) {
        if (!failOpen) {
            refusals.incrementAndGet();
            throw unavailable();
        }
        fallbacks.incrementAndGet();
        return local.get();
    }

    public void run(Runnable shared, Runnable local) {
        call(() -> {
            shared.run();
            return null;
        }, () -> {
            local.run();
            return null;
        });
    }

    /** The 503 for what cannot be answered without the store. */
    public StoreUnavailableException unavailable() {
        return new StoreUnavailableException(RETRY_AFTER_SECONDS);
    }

    /** Whether this instance goes on without the store ({@code open}) rather than refusing ({@code closed}). */
    public boolean failsOpen() {
        return failOpen;
    }

    /** Calls to Redis that failed (unreachable, timed out, or an error reply such as OOM). */
    public long failures() {
        return failures.get();
    }

    /** Requests served from this instance's own state because the store was unreachable (a metric to export). */
    public long fallbacks() {
        return fallbacks.get();
    }

    /** Requests refused with 503 because the store was unreachable (a metric to export). */
    public long refusals() {
        return refusals.get();
    }
}
