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
 * Once a call fails, Redis is left alone for {@link #PROBE_INTERVAL} before the next call tries it again, so a Redis
 * that hangs costs one command timeout per interval, not one per call. Each fallback and refusal is counted; the
 * outage and the recovery are logged once each, not once per request.
 */
public final class StoreOutage {

    /** How long a refused client should wait: about the time Lettuce needs to notice Redis is back. */
    private static final long RETRY_AFTER_SECONDS = 5;

    private static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(StoreOutage.class);

    private final boolean failOpen;
    private final String store;
    private final AtomicBoolean down = new AtomicBoolean();
    private volatile long nextProbeNanos;
    private final AtomicLong fallbacks = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();

    public StoreOutage(String whenUnreachable, String store) {
        this.failOpen = switch (whenUnreachable.trim()) {
            case "open" -> true;
            case "closed" -> false;
            default -> throw new IllegalArgumentException(
                    "assistant.redis.when-unreachable must be 'open' or 'closed', not '" + whenUnreachable + "'");
        };
        this.store = store;
    }

    /** The shared answer, or while the store is unreachable, the local one (open) or a 503 (closed). */
    public <T> T call(Supplier<T> shared, Supplier<T> local) {
        if (down.get() && System.nanoTime() - nextProbeNanos < 0) {
            return degraded(local);
        }
        T result;
        try {
            result = shared.get();
        } catch (RedisException e) {
            nextProbeNanos = System.nanoTime() + PROBE_INTERVAL.toNanos();
            if (down.compareAndSet(false, true)) {
                // An error reply (CROSSSLOT, READONLY, OOM…) is a configuration problem, not a network one: say which
                LOG.warn("{} {} ({}); {}", store,
                        e instanceof RedisCommandExecutionException ? "answered with an error" : "is unreachable",
                        e.getMessage(),
                        failOpen ? "going on with this instance's own counters and threads" : "refusing with 503");
            }
            return degraded(local);
        }
        if (down.compareAndSet(true, false)) {
            LOG.info("{} is reachable again", store);
        }
        return result;
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

    /** Requests served from this instance's own state because the store was unreachable (a metric to export). */
    public long fallbacks() {
        return fallbacks.get();
    }

    /** Requests refused with 503 because the store was unreachable (a metric to export). */
    public long refusals() {
        return refusals.get();
    }
}
