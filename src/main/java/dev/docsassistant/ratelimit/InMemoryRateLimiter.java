package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.docsassistant.ground.Caches;

/**
 * The counters of one instance: an atomic counter per key and fixed window, dropped by Caffeine once its window is
 * over; a token bucket per key, dropped once it would be full again (a missing bucket is a full one); and a count of
 * open leases per key, dropped at zero. Memory follows the number of active clients, up to {@link #WINDOWS_BYTES} of
 * windows and of buckets: past that the least used are forgotten (their clients start afresh) rather than the heap
 * filled by clients without end.
 */
public class InMemoryRateLimiter implements RateLimiter {

    /** ~200 bytes a window or bucket: ~80,000 of each (clients, keys and organizations) counted at once. */
    private static final long WINDOWS_BYTES = 16L << 20;

    private record Window(AtomicLong count, long endMillis) {
    }

    /** A bucket and when it is full again, which is when it may be forgotten. */
    private record Bucket(TokenBucket state, long fullAtMillis) {
    }

    private final Clock clock;
    private final Cache<String, Window> windows;
    private final Cache<String, Bucket> buckets;
    private final Map<String, Long> open = new ConcurrentHashMap<>();

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
        this.buckets = Caches.<String, Bucket>weighed(WINDOWS_BYTES,
                        (key, bucket) -> Caches.bytes(key) + 3L * Caches.OBJECT)
                .expireAfter(new Expiry<String, Bucket>() {
                    @Override
                    public long expireAfterCreate(String key, Bucket bucket, long currentTime) {
                        return TimeUnit.MILLISECONDS.toNanos(Math.max(0, bucket.fullAtMillis() - clock.millis()));
                    }

                    @Override
                    public long expireAfterUpdate(String key, Bucket bucket, long currentTime, long currentDuration) {
                        return expireAfterCreate(key, bucket, currentTime);
                    }

                    @Override
                    public long expireAfterRead(String key, Bucket bucket, long currentTime, long currentDuration) {
                        return currentDuration;
                    }
                })
                .build();
    }

    @Override
    public Decision acquire(String key, long limit, Duration window) {
        long end = RateLimiter.windowEndMillis(clock.millis(), window);
        Window current = windows.get(key + '@' + end, k -> new Window(new AtomicLong(), end));
        long count = current.count().incrementAndGet();
        return new Decision(count <= limit, limit, Math.max(0, limit - count), end / 1000);
    }

    @Override
    public Decision take(String key, long perMinute, long burst) {
        long now = clock.millis();
        Decision[] decision = new Decision[1];
        // compute() is atomic per key, and an update, so the entry's expiry follows the bucket just written
        buckets.asMap().compute(key, (k, bucket) -> {
            TokenBucket state = (bucket == null ? TokenBucket.full(burst, now) : bucket.state())
                    .at(now, perMinute, burst);
            boolean allowed = state.hasToken();
            TokenBucket after = allowed ? state.taken() : state;
            decision[0] = after.decision(allowed, perMinute, burst);
            return new Bucket(after, now + after.millisToFull(perMinute, burst));
        });
        return decision[0];
    }

    @Override
    public Lease open(String key, long max) {
        long[] before = new long[1];
        open.compute(key, (k, held) -> {
            before[0] = held == null ? 0 : held;
            return before[0] < max ? before[0] + 1 : held;
        });
        if (before[0] >= max) {
            return CountedLease.refused(max, before[0]);
        }
        return CountedLease.granted(max, before[0] + 1,
                () -> open.computeIfPresent(key, (k, held) -> held <= 1 ? null : held - 1));
    }
}
