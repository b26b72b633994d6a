package dev.docsassistant.ratelimit;

import java.time.Duration;

import dev.docsassistant.store.Store;
import dev.docsassistant.store.StoreOutage;

/**
 * The counters on the configured {@link Store}: this instance's memory, or Redis shared by every replica. While
 * Redis is unreachable, the store's {@link StoreOutage} policy counts here (open) or refuses (closed).
 */
public class SharedRateLimiter implements RateLimiter {

    private final RateLimiter local = new InMemoryRateLimiter();
    private final RateLimiter shared;
    private final StoreOutage outage;

    public SharedRateLimiter(Store store) {
        this.shared = store.redis() == null ? null : new RedisRateLimiter(store.redis());
        this.outage = store.outage();
    }

    @Override
    public Decision acquire(String key, long limit, Duration window) {
        if (shared == null) {
            return local.acquire(key, limit, window);
        }
        return outage.call(() -> shared.acquire(key, limit, window), () -> local.acquire(key, limit, window));
    }
}
