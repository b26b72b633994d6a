package dev.docsassistant.store;

import java.time.Duration;

import io.lettuce.core.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the state that must outlive a request lives, chosen by {@code assistant.store}: {@code memory} (this
 * instance only, the embedded default) or {@code redis} (shared by every replica, kept across restarts). The rate
 * limiter and the thread store in beans.yaml are built on it, so switching needs no Java.
 */
public final class Store implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Store.class);

    private final Redis redis;
    private final StoreOutage outage;

    /**
     * @param kind             {@code memory} or {@code redis}
     * @param redisUrl         see {@link Redis}: the URL, user and password are only read for {@code redis}
     * @param timeoutMillis    bounds connecting to Redis and every command
     * @param whenUnreachable  {@code open} or {@code closed}, see {@link StoreOutage}
     */
    public Store(String kind, String redisUrl, String redisUsername, String redisPassword, long timeoutMillis,
            String whenUnreachable) {
        this.redis = switch (kind.trim()) {
            case "memory" -> null;
            case "redis" -> new Redis(redisUrl, redisUsername, redisPassword, Duration.ofMillis(timeoutMillis));
            default -> throw new IllegalArgumentException(
                    "assistant.store must be 'memory' or 'redis', not '" + kind + "'");
        };
        this.outage = new StoreOutage(whenUnreachable, redis == null ? "memory" : "Redis at " + redis);
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
    public void close() {
        if (redis != null) {
            redis.close();
        }
    }
}
