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
 */
public class WindowTotals {

    /** KEYS the windows' totals. */
    private static final String READ = """
            local totals = {}
            for i, key in ipairs(KEYS) do totals[i] = tonumber(redis.call('GET', key) or '0') end
            return totals""";
    /** KEYS the windows' totals, ARGV[1] the amount, ARGV[i + 1] when window i ends (epoch ms): dropped then. */
    private static final String ADD = """
            for i, key in ipairs(KEYS) do
              redis.call('INCRBY', key, ARGV[1])
              redis.call('PEXPIREAT', key, ARGV[i + 1])
            end
            return 0""";

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

    /** Adds {@code amount} to the current window of each length. */
    public void add(String key, long amount, Duration... windows) {
        long[] ends = ends(windows);
        String[] keys = keys(key, windows, ends);
        if (redis == null) {
            localAdd(keys, ends, amount);
            return;
        }
        List<String> args = new ArrayList<>();
        args.add(Long.toString(amount));
        for (long end : ends) {
            args.add(Long.toString(end));
        }
        outage.run(() -> redis.eval(ADD, ScriptOutputType.INTEGER, keys, args.toArray(String[]::new)),
                () -> localAdd(keys, ends, amount));
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

    private void localAdd(String[] keys, long[] ends, long amount) {
        for (int i = 0; i < keys.length; i++) {
            long end = ends[i];
            local.get(keys[i], k -> new Total(new AtomicLong(), end)).amount().addAndGet(amount);
        }
    }
}
