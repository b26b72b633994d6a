package dev.docsassistant.ratelimit;

import java.time.Duration;
import java.util.function.Function;

import dev.docsassistant.store.Store;
import dev.docsassistant.store.StoreOutage;

/**
 * The counters on the configured {@link Store}: this instance's memory, or Redis shared by every replica. While
 * Redis is unreachable, the store's {@link StoreOutage} policy counts here (open) or refuses (closed); a lease is
 * released where it was taken.
 */
public class SharedRateLimiter implements RateLimiter, AutoCloseable {

    private final RateLimiter local = new InMemoryRateLimiter();
    private final RedisRateLimiter shared;
    private final StoreOutage outage;

    public SharedRateLimiter(Store store) {
        this.shared = store.redis() == null ? null : new RedisRateLimiter(store.redis());
        this.outage = store.outage();
    }

    @Override
    public Decision acquire(String key, long limit, Duration window) {
        return onStore(limiter -> limiter.acquire(key, limit, window));
    }

    @Override
    public Decision take(String key, long perMinute, long burst) {
        return onStore(limiter -> limiter.take(key, perMinute, burst));
    }

    @Override
    public Lease open(String key, long max, String holder, long reserve) {
        return onStore(limiter -> limiter.open(key, max, holder, reserve));
    }

    private <T> T onStore(Function<RateLimiter, T> call) {
        return shared == null ? call.apply(local) : outage.call(() -> call.apply(shared), () -> call.apply(local));
    }

    @Override
    public void close() {
        if (shared != null) {
            shared.close();
        }
    }
}
