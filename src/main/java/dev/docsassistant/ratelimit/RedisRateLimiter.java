package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;

import dev.docsassistant.store.Redis;
import io.lettuce.core.ScriptOutputType;

/**
 * Fixed-window counters shared by every instance: one Redis counter per key and window, incremented and given its
 * expiry in one Lua script, so the count is exact however many replicas serve the key at once. The window is taken
 * from this instance's clock (NTP keeps replicas within milliseconds; a request at the boundary counts in either
 * window, never in both).
 */
public class RedisRateLimiter implements RateLimiter {

    /** KEYS[1] the window's counter, ARGV[1] when the window ends (epoch ms): the counter is dropped then. */
    private static final String COUNT = """
            local count = redis.call('INCR', KEYS[1])
            if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
            return count""";

    private final Redis redis;
    private final Clock clock;

    public RedisRateLimiter(Redis redis) {
        this(redis, Clock.systemUTC());
    }

    RedisRateLimiter(Redis redis, Clock clock) {
        this.redis = redis;
        this.clock = clock;
    }

    @Override
    public Decision acquire(String key, long limit, Duration window) {
        long end = RateLimiter.windowEndMillis(clock.millis(), window);
        // The hash tag keeps a key's counters on one Cluster slot; the window end makes each window its own counter.
        String counter = "ratelimit:{" + key + "}:" + end;
        Long count = redis.eval(COUNT, ScriptOutputType.INTEGER, new String[] {counter}, Long.toString(end));
        return new Decision(count <= limit, limit, Math.max(0, limit - count), end / 1000);
    }
}
