package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.docsassistant.ground.Caches;

/**
 * The counters of one instance: an atomic counter per key and fixed window, dropped by Caffeine once its window is
 * over; a token bucket per key, dropped once it is surely full again (a missing bucket is a full one); and a count of
 * open leases per key (and per key and holder, for a reserve), dropped at zero. Memory follows the number of active clients, up to {@link #WINDOWS_BYTES} of
 * windows and of buckets: past that the least used are forgotten (their clients start afresh) rather than the heap
 * filled by clients without end.
 * <p>
 * A request reads its counters and changes them by compare-and-set, never through a lock or a cache write: every
 * request of an organization, and every reader behind one address, counts on the same keys at once.
 */
public class InMemoryRateLimiter implements RateLimiter {

    /** ~200 bytes a window or bucket: ~80,000 of each (clients, keys and organizations) counted at once. */
    private static final long WINDOWS_BYTES = 16L << 20;

    private record Window(AtomicLong count, long endMillis) {
    }

    /**
     * A key's bucket, replaced whole at each take. It is kept for as long as an empty bucket takes to fill after the
     * key's last take: past that it is full whatever it held, which is what a forgotten bucket is.
     */
    private static final class Bucket extends AtomicReference<TokenBucket> {

        private final Duration refill;

        Bucket(TokenBucket full, long perMinute, long burst) {
            super(full);
            this.refill = Duration.ofMillis((long) Math.ceil(burst * 60_000.0 / perMinute));
        }
    }

    /** The open leases of a key; -1 once the count fell to zero and the counter is being dropped. */
    private static final long DROPPED = -1;

    private final Clock clock;
    private final Cache<String, Window> windows;
    private final Cache<String, Bucket> buckets;
    private final Map<String, AtomicLong> open = new ConcurrentHashMap<>();

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
                        (key, bucket) -> Caches.bytes(key) + 4L * Caches.OBJECT)
                .expireAfter(Expiry.<String, Bucket>accessing((key, bucket) -> bucket.refill))
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
        Bucket bucket = buckets.get(key, k -> new Bucket(TokenBucket.full(burst, now), perMinute, burst));
        while (true) {
            TokenBucket before = bucket.get();
            TokenBucket state = before.at(now, perMinute, burst);
            boolean allowed = state.hasToken();
            TokenBucket after = allowed ? state.taken() : state;
            if (bucket.compareAndSet(before, after)) {
                return after.decision(allowed, perMinute, burst);
            }
        }
    }

    @Override
    public Lease open(String key, long max, String holder, long reserve) {
        // The holder's own count is taken first, so that of its two first requests at once the second sees the first.
        String own = holder == null ? null : key + '\n' + holder;
        Count mine = own == null ? null : count(own, Long.MAX_VALUE);
        Count place = count(key, mine == null || mine.held() == 1 ? max : max - reserve);
        if (place.counter() == null) {
            if (mine != null) {
                giveBack(own, mine.counter());
            }
            return CountedLease.refused(max, place.held());
        }
        return CountedLease.granted(max, place.held(), () -> {
            giveBack(key, place.counter());
            if (mine != null) {
                giveBack(own, mine.counter());
            }
        });
    }

    /** A key's open places once one was asked for, and its counter; no counter if refused. */
    private record Count(AtomicLong counter, long held) {
    }

    /** Counts one more of {@code key}'s places if fewer than {@code max} are held. */
    private Count count(String key, long max) {
        while (true) {
            AtomicLong held = open.computeIfAbsent(key, k -> new AtomicLong());
            long before = held.get();
            if (before == DROPPED) {
                open.remove(key, held); // its last lease was given back: count on a new counter
            } else if (before >= max) {
                return new Count(null, before);
            } else if (held.compareAndSet(before, before + 1)) {
                return new Count(held, before + 1);
            }
        }
    }

    /** One place back; the last one drops the counter, unless a lease took it first (then the CAS fails). */
    private void giveBack(String key, AtomicLong held) {
        if (held.decrementAndGet() == 0 && held.compareAndSet(0, DROPPED)) {
            open.remove(key, held);
        }
    }
}
