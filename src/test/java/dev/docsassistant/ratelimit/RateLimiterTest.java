package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.docsassistant.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Token buckets and leases in both stores, on a clock the test moves: the same figures in memory and on a real
 * Redis, and a lease its instance never released (the instance died) expires on Redis.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RateLimiterTest {

    private static final long T0 = 1_800_000_000_000L;

    @RegisterExtension
    static final RedisServer.PerClass REDIS = new RedisServer.PerClass();

    /** A clock that stands still until the test moves it. */
    private static final class TestClock extends Clock {
        private volatile long millis = T0;

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void aBucketGivesItsBurstThenOneTokenPerRateStepInMemory() {
        assertBucket(InMemoryRateLimiter::new);
    }

    @Test
    void aBucketGivesItsBurstThenOneTokenPerRateStepOnRedis() {
        assertBucket(clock -> new RedisRateLimiter(REDIS.client(), clock));
    }

    /** A bucket of 3 gaining 60 a minute: 3 at once, then one a second, never more than 3 saved up. */
    private void assertBucket(Function<Clock, RateLimiter> limiterOn) {
        TestClock clock = new TestClock();
        RateLimiter limiter = limiterOn.apply(clock);
        String key = "ip:bucket-" + System.nanoTime();
        for (int left = 2; left >= 0; left--) {
            RateLimiter.Decision taken = limiter.take(key, 60, 3);
            assertTrue(taken.allowed());
            long nextToken = left > 0 ? T0 : T0 + 1000; // the last token taken, the next comes a second later
            assertEquals(new RateLimiter.Decision(true, 3, left, (T0 + (3 - left) * 1000) / 1000, nextToken / 1000),
                    taken);
        }
        RateLimiter.Decision refused = limiter.take(key, 60, 3);
        assertFalse(refused.allowed());
        assertEquals(1, refused.retryAfterSeconds(T0 / 1000), "the next token comes in a second");
        assertEquals(T0 / 1000 + 3, refused.resetEpochSecond(), "full again in three");

        clock.millis = T0 + 1500;
        assertTrue(limiter.take(key, 60, 3).allowed(), "a second and a half later: one token");
        assertFalse(limiter.take(key, 60, 3).allowed());
        clock.millis = T0 + 600_000;
        for (int i = 0; i < 3; i++) {
            assertTrue(limiter.take(key, 60, 3).allowed());
        }
        assertFalse(limiter.take(key, 60, 3).allowed(), "ten idle minutes save up no more than the burst");
    }

    @Test
    void leasesAreCappedAndGivenBackInMemory() {
        assertLeases(new InMemoryRateLimiter());
    }

    @Test
    void leasesAreCappedAndGivenBackOnRedis() {
        assertLeases(new RedisRateLimiter(REDIS.client()));
    }

    private static void assertLeases(RateLimiter limiter) {
        String key = "org:leases-" + System.nanoTime();
        RateLimiter.Lease first = limiter.open(key, 2);
        RateLimiter.Lease second = limiter.open(key, 2);
        assertTrue(first.granted() && second.granted());
        assertEquals(0, second.remaining());
        assertFalse(limiter.open(key, 2).granted());
        first.release();
        first.release(); // once only: a second call must not free another's place
        assertTrue(reopened(limiter, key), "the released place is given back");
        assertFalse(limiter.open(key, 2).granted());
    }

    @Test
    void aHolderWithAPlaceCannotTakeTheReservedOnesInMemory() {
        assertReserve(new InMemoryRateLimiter());
    }

    @Test
    void aHolderWithAPlaceCannotTakeTheReservedOnesOnRedis() {
        assertReserve(new RedisRateLimiter(REDIS.client()));
    }

    /**
     * 5 places, 2 reserved: a busy holder takes 3, its own fourth is refused while a new holder takes one, and
     * holders that hold none take the reserve; a released place counts for both the key and its holder.
     */
    private static void assertReserve(RateLimiter limiter) {
        String key = "org:reserve-" + System.nanoTime();
        List<RateLimiter.Lease> busy = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            busy.add(limiter.open(key, 5, "ip:busy", 2));
            assertTrue(busy.get(i).granted());
        }
        assertFalse(limiter.open(key, 5, "ip:busy", 2).granted(), "the last two places are not for a busy holder");
        RateLimiter.Lease fresh = limiter.open(key, 5, "ip:fresh", 2);
        assertTrue(fresh.granted(), "a holder with none takes a reserved place");
        assertFalse(limiter.open(key, 5, "ip:fresh", 2).granted(), "and then holds one: no more of the reserve");
        assertTrue(limiter.open(key, 5, "ip:other", 2).granted());
        assertFalse(limiter.open(key, 5, "ip:another", 2).granted(), "all five taken");

        fresh.release();
        long deadline = System.nanoTime() + 5_000_000_000L;
        RateLimiter.Lease again = limiter.open(key, 5, "ip:fresh", 2);
        while (!again.granted() && System.nanoTime() < deadline) { // on Redis the release runs on its own thread
            Thread.onSpinWait();
            again = limiter.open(key, 5, "ip:fresh", 2);
        }
        assertTrue(again.granted(), "its place given back, the holder holds none again");
        assertFalse(limiter.open(key, 5, "ip:busy", 2).granted());
    }

    /** Opens a lease once a released one is given back: on Redis the release runs on the limiter's own thread. */
    private static boolean reopened(RateLimiter limiter, String key) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!limiter.open(key, 2).granted()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    /**
     * Every request of an organization counts on one key at once, so the in-memory counters change without locks:
     * under eight threads on one key, a bucket still gives exactly its burst, and never more leases are open than
     * the cap, with every place given back in the end (a lost update would show as one or the other).
     */
    @Test
    void oneKeyCountedByManyThreadsAtOnceIsExactInMemory() throws Exception {
        InMemoryRateLimiter limiter = new InMemoryRateLimiter(new TestClock());
        int threads = 8;
        int rounds = 20_000;
        AtomicInteger allowed = new AtomicInteger();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<Void>> work = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                work.add(() -> {
                    for (int i = 0; i < rounds; i++) {
                        if (limiter.take("ip:hot", 1, 5_000).allowed()) {
                            allowed.incrementAndGet();
                        }
                        RateLimiter.Lease lease = limiter.open("org:hot", 3);
                        if (lease.granted()) {
                            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            inside.decrementAndGet();
                            lease.release();
                        }
                    }
                    return null;
                });
            }
            for (Future<Void> done : pool.invokeAll(work)) {
                done.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(5_000, allowed.get(), "the clock stands still: the burst and not one token more");
        assertTrue(mostInside.get() <= 3, "at most 3 open at once, saw " + mostInside.get());
        for (int i = 0; i < 3; i++) {
            assertTrue(limiter.open("org:hot", 3).granted(), "every place was given back");
        }
        assertFalse(limiter.open("org:hot", 3).granted());
    }

    @Test
    void aLeaseItsInstanceNeverReleasedExpiresOnRedis() {
        TestClock clock = new TestClock();
        String key = "ip:crashed-" + System.nanoTime();
        try (RedisRateLimiter crashed = new RedisRateLimiter(REDIS.client(), clock)) {
            assertTrue(crashed.open(key, 1).granted());
        } // closed without releasing, and renewing no more: as if its instance died

        RedisRateLimiter survivor = new RedisRateLimiter(REDIS.client(), clock);
        clock.millis = T0 + RedisRateLimiter.LEASE_TTL.toMillis() - 1;
        assertFalse(survivor.open(key, 1).granted(), "held until its time to live is over");
        clock.millis = T0 + RedisRateLimiter.LEASE_TTL.toMillis() + 1;
        assertTrue(survivor.open(key, 1).granted(), "then its place is free");
    }
}
