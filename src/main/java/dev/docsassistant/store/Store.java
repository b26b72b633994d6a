package dev.docsassistant.store;

import java.time.Duration;

import io.lettuce.core.RedisException;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the state that must outlive a request lives, chosen by {@code assistant.store}: {@code memory} (this
 * instance only, the embedded default) or {@code redis} (shared by every replica, kept across restarts). The rate
 * limiter and the thread store in wiring.yaml are built on it, so switching needs no Java. Its metrics count the calls
 * to Redis that failed and what was done instead ({@link StoreOutage}).
 */
public final class Store implements AutoCloseable, MeterBinder {

    private static final Logger LOG = LoggerFactory.getLogger(Store.class);

    private final Redis redis;
    private final StoreOutage outage;

    /**
     * Where Redis is, read only for {@code redis}; see {@link Redis}. Its text shows no part of it: the URL and the
     * password may hold credentials.
     *
     * @param timeoutMillis bounds connecting to Redis and every command
     */
    public record RedisSettings(String url, String username, String password, long timeoutMillis) {

        @Override
        public String toString() {
            return "RedisSettings[hidden]";
        }
    }

    /**
     * @param kind              {@code memory} or {@code redis}
     * @param whenUnreachable   {@code open} or {@code closed}, see {@link StoreOutage}
     * @param failureLogSeconds how often, at most, failing calls to Redis are logged again while they go on
     */
    public Store(String kind, RedisSettings redisSettings, String whenUnreachable, long failureLogSeconds) {
        this.redis = switch (kind.trim()) {
            case "memory" -> null;
            case "redis" -> new Redis(redisSettings.url(), redisSettings.username(), redisSettings.password(),
                    Duration.ofMillis(redisSettings.timeoutMillis()));
            default -> throw new IllegalArgumentException(
                    "assistant.store must be 'memory' or 'redis', not '" + kind + "'");
        };
        this.outage = new StoreOutage(whenUnreachable, redis == null ? "memory" : "Redis at " + redis,
                Duration.ofSeconds(failureLogSeconds));
    }

    /**
     * Connects to Redis ahead of the first request (the store route calls it once the service is up), so that
     * request does not wait for it. A Redis that is down now is only logged: every use tries again.
     */
    public void connect() {
        if (redis == null) {
            return;
        }
        try {
            redis.ping();
            LOG.info("Quotas and threads are kept on Redis at {}", redis);
        } catch (RedisException e) {
            LOG.warn("Redis at {} is not reachable yet ({}); trying again on use", redis, e.getMessage());
        }
    }

    /** Null for the memory store. */
    public Redis redis() {
        return redis;
    }

    public StoreOutage outage() {
        return outage;
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        FunctionCounter.builder("assistant.store.failures", outage, StoreOutage::failures)
                .description("Calls to Redis that failed: unreachable, timed out, or refused (out of memory…)")
                .register(meters);
        FunctionCounter.builder("assistant.store.fallbacks", outage, StoreOutage::fallbacks)
                .description("Calls served from this instance's own state while Redis failed").register(meters);
        FunctionCounter.builder("assistant.store.refusals", outage, StoreOutage::refusals)
                .description("Requests refused with 503 while Redis failed").register(meters);
    }

    @Override
    public void close() {
        if (redis != null) {
            redis.close();
        }
    }
}
