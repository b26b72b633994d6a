package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.docsassistant.ground.Caches;
import dev.docsassistant.store.Redis;
import dev.docsassistant.store.Store;
import dev.docsassistant.store.StoreOutage;
import io.lettuce.core.ScriptOutputType;

/**
 * Amounts added up per key in fixed windows (hours, UTC days: see {@link RateLimiter#windowEndMillis}), on the
 * configured {@link Store}: this instance's memory, or Redis shared by every replica, where one Lua script adds to
 * all of a key's windows and gives each its expiry, so concurrent additions from any replica are all kept. While Redis
 * is unreachable the store's {@link StoreOutage} policy counts here (open) or refuses (closed).
 * <p>
 * This instance's own totals ({@link #seen}) are what it counted alone (in memory, or on an unreachable Redis while
 * failing open) and at least every shared total one of its additions returned: totals only grow within a window, so
 * they are never above the shared ones by more than what this instance counted alone.
 */
public class WindowTotals {

    /** KEYS the windows' totals. */
    private static final String READ = """
            local totals = {}
            for i, key in ipairs(KEYS) do totals[i] = tonumber(redis.call('GET', key) or '0') end
            return totals""";
    /**
     * KEYS the windows' totals, ARGV[1] the amount, ARGV[i + 1] when window i ends (epoch ms): dropped then. Returns
     * the totals after adding.
     */
    private static final String ADD = """
            local totals = {}
            for i, key in ipairs(KEYS) do
              totals[i] = redis.call('INCRBY', key, ARGV[1])
              redis.call('PEXPIREAT', key, ARGV[i + 1])
            end
            return totals""";

    private record Total(AtomicLong amount, long endMillis) {
    }

    /**
     * The most this instance's totals hold (~200 bytes a window: ~80,000 keys at once), so keys made by clients (an
     * address's failed authentications) cannot fill the heap: past it the least used are forgotten and start afresh.
     */
    private static final long LOCAL_BYTES = 16L << 20;

    private final Redis redis;
    private final StoreOutage outage;
    private final Clock clock;
    private final Cache<String, Total> local;

    public WindowTotals(Store store) {
        this(store, Clock.systemUTC());
    }

    WindowTotals(Store store, Clock clock) {
        this.redis = store.redis();
        this.outage = store.outage();
        this.clock = clock;
        this.local = Caches.<String, Total>weighed(LOCAL_BYTES,
                        (key, total) -> Caches.bytes(key) + 2L * Caches.OBJECT)
                .expireAfter(Expiry.<String, Total>creating((key, total) ->
                        Duration.ofMillis(Math.max(0, total.endMillis() - clock.millis()))))
                .build();
    }

    /** When each window holding now ends, in epoch ms. */
    private long[] ends(Duration... windows) {
        long now = clock.millis();
        long[] ends = new long[windows.length];
        for (int i = 0; i < windows.length; i++) {
            ends[i] = RateLimiter.windowEndMillis(now, windows[i]);
        }
        return ends;
    }

    /** The totals of {@code key} in the current window of each length, in that order. */
    public long[] totals(String key, Duration... windows) {
        long[] ends = ends(windows);
        String[] keys = keys(key, windows, ends);
        if (redis == null) {
            return localTotals(keys);
        }
        return outage.call(() -> {
            List<Long> totals = redis.eval(READ, ScriptOutputType.MULTI, keys);
            return totals.stream().mapToLong(Long::longValue).toArray();
        }, () -> localTotals(keys));
    }

    /**
     * This instance's own totals of {@code key} (see the class comment), without asking the store: exact in memory,
     * on Redis at most the shared ones.
     */
    public long[] seen(String key, Duration... windows) {
        return localTotals(keys(key, windows, ends(windows)));
    }

    /**
     * Adds {@code amount} to the current window of each length.
     *
     * @return the totals after adding, in the order of {@code windows}: on Redis every replica's, which this instance
     *         then has {@link #seen}
     */
    public long[] add(String key, long amount, Duration... windows) {
        long[] ends = ends(windows);
        String[] keys = keys(key, windows, ends);
        if (redis == null) {
            return localAdd(keys, ends, amount);
        }
        List<String> args = new ArrayList<>();
        args.add(Long.toString(amount));
        for (long end : ends) {
            args.add(Long.toString(end));
        }
        return outage.call(() -> {
            List<Long> shared = redis.eval(ADD, ScriptOutputType.MULTI, keys, args.toArray(String[]::new));
            long[] totals = shared.stream().mapToLong(Long::longValue).toArray();
            for (int i = 0; i < keys.length; i++) {
                total(keys[i], ends[i]).accumulateAndGet(totals[i], Math::max);
            }
            return totals;
        }, () -> localAdd(keys, ends, amount));
    }

    /** The hash tag keeps a key's windows on one Cluster slot (one script touches them all). */
    private static String[] keys(String key, Duration[] windows, long[] ends) {
        String[] keys = new String[windows.length];
        for (int i = 0; i < windows.length; i++) {
            keys[i] = "totals:{" + key + "}:" + windows[i].toSeconds() + ":" + ends[i];
        }
        return keys;
    }

    private long[] localTotals(String[] keys) {
        long[] totals = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            Total total = local.getIfPresent(keys[i]);
            totals[i] = total == null ? 0 : total.amount().get();
        }
        return totals;
    }

    private long[] localAdd(String[] keys, long[] ends, long amount) {
        long[] totals = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            totals[i] = total(keys[i], ends[i]).addAndGet(amount);
        }
        return totals;
    }

    private AtomicLong total(String key, long end) {
        return local.get(key, k -> new Total(new AtomicLong(), end)).amount();
    }
}
