package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.docsassistant.ground.Secrets;
import dev.docsassistant.store.Redis;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;

/**
 * The counters shared by every instance, each kind changed by one Lua script, so a count is exact however many
 * replicas serve a key at once. Times are taken from this instance's clock (NTP keeps replicas within milliseconds).
 * <ul>
 * <li>Fixed windows: one counter per key and window, incremented and given its expiry together (a request at the
 * boundary counts in either window, never in both).</li>
 * <li>Token buckets: a hash of the tokens left and when, refilled and taken from together.</li>
 * <li>Leases: a sorted set of lease ids scored by when each expires, and one per holder of the key when a reserve
 * is kept (the same ids); opening one first drops the expired ones. An
 * instance renews its open leases every {@link #RENEW_EVERY} while their requests run, so a lease outlives its
 * request only when its instance died without releasing it, and then by at most {@link #LEASE_TTL}.</li>
 * </ul>
 * Every key carries its limit key as a hash tag, so each script touches one Cluster slot.
 */
public class RedisRateLimiter implements RateLimiter, AutoCloseable {

    /** KEYS[1] the window's counter, ARGV[1] when the window ends (epoch ms): the counter is dropped then. */
    private static final String COUNT = """
            local count = redis.call('INCR', KEYS[1])
            if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
            return count""";

    /**
     * KEYS[1] the bucket, ARGV[1] burst, ARGV[2] tokens gained a millisecond, ARGV[3] now (epoch ms). Returns whether
     * a token was taken and the thousandths of tokens left; the bucket is dropped once it would be full again.
     */
    private static final String TAKE = """
            local burst, rate, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
            local state = redis.call('HMGET', KEYS[1], 't', 'at')
            local tokens, at = burst, now
            if state[1] then
              at = tonumber(state[2])
              tokens = math.min(burst, tonumber(state[1]) + math.max(0, now - at) * rate)
              at = math.max(at, now)
            end
            local taken = 0
            if tokens >= 1 then tokens, taken = tokens - 1, 1 end
            redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(at))
            redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate) + 1000)
            return {taken, math.floor(tokens * 1000), at}""";

    /**
     * KEYS[1] the key's leases, KEYS[2] (if any) its holder's leases of that key, ARGV[1] the most open at once,
     * ARGV[2] now, ARGV[3] the lease id, ARGV[4] its expiry (epoch ms), ARGV[5] the sets' time to live (ms), ARGV[6]
     * the places a holder that holds one cannot take. Returns whether it was granted and the leases open before.
     */
    private static final String OPEN = """
            local max = tonumber(ARGV[1])
            for _, set in ipairs(KEYS) do redis.call('ZREMRANGEBYSCORE', set, '-inf', ARGV[2]) end
            if KEYS[2] and redis.call('ZCARD', KEYS[2]) > 0 then max = max - tonumber(ARGV[6]) end
            local open = redis.call('ZCARD', KEYS[1])
            if open >= max then return {0, open} end
            for _, set in ipairs(KEYS) do
              redis.call('ZADD', set, ARGV[4], ARGV[3])
              redis.call('PEXPIRE', set, ARGV[5])
            end
            return {1, open}""";

    /** KEYS the lease's sets, ARGV[1] the lease id. */
    private static final String RELEASE = """
            for _, set in ipairs(KEYS) do redis.call('ZREM', set, ARGV[1]) end
            return 0""";

    /** KEYS the lease's sets, ARGV[1] the lease id, ARGV[2] its new expiry, ARGV[3] the sets' time to live. */
    private static final String RENEW = """
            for _, set in ipairs(KEYS) do
              if redis.call('ZADD', set, 'XX', 'CH', ARGV[2], ARGV[1]) == 1 then
                redis.call('PEXPIRE', set, ARGV[3])
              end
            end
            return 0""";

    static final Duration LEASE_TTL = Duration.ofSeconds(30);
    static final Duration RENEW_EVERY = LEASE_TTL.dividedBy(3);

    /** A lease's sets: its key's, and its holder's of that key if it has one. */
    private record Held(String[] sets, String id) {
    }

    private final Redis redis;
    private final Clock clock;
    private final Set<Held> held = ConcurrentHashMap.newKeySet();
    private volatile ScheduledExecutorService background;

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
        // The window end makes each window its own counter.
        String counter = "ratelimit:{" + key + "}:" + end;
        Long count = redis.eval(COUNT, ScriptOutputType.INTEGER, new String[] {counter}, Long.toString(end));
        return new Decision(count <= limit, limit, Math.max(0, limit - count), end / 1000);
    }

    @Override
    public Decision take(String key, long perMinute, long burst) {
        List<Long> reply = redis.eval(TAKE, ScriptOutputType.MULTI, new String[] {"bucket:{" + key + "}"},
                Long.toString(burst), Double.toString(perMinute / 60_000.0), Long.toString(clock.millis()));
        TokenBucket after = new TokenBucket(reply.get(1) / 1000.0, reply.get(2));
        return after.decision(reply.get(0) == 1, perMinute, burst);
    }

    @Override
    public Lease open(String key, long max, String holder, long reserve) {
        String set = "leases:{" + key + "}";
        String[] sets = holder == null ? new String[] {set} : new String[] {set, set + ":" + holder};
        String id = Secrets.id(12);
        long now = clock.millis();
        List<Long> reply = redis.eval(OPEN, ScriptOutputType.MULTI, sets, Long.toString(max),
                Long.toString(now), id, Long.toString(now + LEASE_TTL.toMillis()), Long.toString(LEASE_TTL.toMillis()),
                Long.toString(reserve));
        if (reply.get(0) != 1) {
            return CountedLease.refused(max, reply.get(1));
        }
        Held lease = new Held(sets, id);
        held.add(lease);
        ScheduledExecutorService background = background();
        return CountedLease.granted(max, reply.get(1) + 1, () -> {
            held.remove(lease);
            try {
                background.execute(() -> {
                    try {
                        redis.eval(RELEASE, ScriptOutputType.INTEGER, sets, id);
                    } catch (RedisException e) {
                        // Redis is unreachable: the lease, no longer renewed, expires within LEASE_TTL
                    }
                });
            } catch (RejectedExecutionException e) {
                // shutting down: the lease expires within LEASE_TTL
            }
        });
    }

    /**
     * The thread that renews the open leases and releases ended ones, so that no Redis call (bounded by its timeout
     * only) runs where Camel completes an exchange: on a Vert.x event loop. Started with the first lease, not at
     * construction, as Camel creates YAML beans twice at start-up.
     */
    private ScheduledExecutorService background() {
        ScheduledExecutorService started = background;
        return started != null ? started : startBackground();
    }

    private synchronized ScheduledExecutorService startBackground() {
        if (background == null) {
            background = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "rate-limit-leases");
                thread.setDaemon(true);
                return thread;
            });
            background.scheduleWithFixedDelay(this::renew, RENEW_EVERY.toMillis(), RENEW_EVERY.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
        return background;
    }

    private void renew() {
        String expiry = Long.toString(clock.millis() + LEASE_TTL.toMillis());
        for (Held lease : held) {
            try {
                redis.eval(RENEW, ScriptOutputType.INTEGER, lease.sets(), lease.id(), expiry,
                        Long.toString(LEASE_TTL.toMillis()));
            } catch (RedisException e) {
                return; // Redis is unreachable (the requests say so): try every lease again next time
            }
        }
    }

    @Override
    public synchronized void close() {
        if (background != null) {
            background.shutdown(); // releases already handed over still run
        }
    }
}
