package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.docsassistant.config.Caches;

/**
 * Fixed-window counters for one instance: one atomic counter per key and window, dropped by Caffeine once its
 * window is over, so memory follows the number of active clients, up to {@link #WINDOWS_BYTES}: past that the least
 * used windows are forgotten (their clients start afresh) rather than the heap filled by clients without end.
 */
public class InMemoryRateLimiter implements RateLimiter {

    /** ~200 bytes a window: ~80,000 clients, keys and organizations counted at once. */
    private static final long WINDOWS_BYTES = 16L << 20;

    private record Window(AtomicLong count, long endMillis) {
    }

    private final Clock clock;
    private final Cache<String, Window> windows;

    public InMemoryRateLimiter() {
        this(Clock.systemUTC());
    }

    InMemoryRateLimiter(Clock clock) {
        this.clock = clock;
        this.windows = Caches.<String, Window>weighed(WINDOWS_BYTES,
                        (key, window) -> Caches.bytes(key) + 2L * Caches.OBJECT)
                .expireAfter(Expiry.<String, Window>creating((key, window) ->
                        Duration.ofMillis(Math.max(0, window.endMillis() - clock.millis()))))
                .build();
    }

    @Override
    public Decision acquire(String key, long limit, Duration window) {
        long end = RateLimiter.windowEndMillis(clock.millis(), window);
        Window current = windows.get(key + '@' + end, k -> new Window(new AtomicLong(), end));
        long count = current.count().incrementAndGet();
        return new Decision(count <= limit, limit, Math.max(0, limit - count), end / 1000);
    }
}
