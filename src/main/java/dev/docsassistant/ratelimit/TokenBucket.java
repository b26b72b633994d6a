package dev.docsassistant.ratelimit;

/**
 * A token bucket's state: {@code tokens} (fractional) as of {@code atMillis}. It gains {@code perMinute} tokens a
 * minute up to {@code burst}; a request takes one. {@link RedisRateLimiter}'s script does the same arithmetic.
 */
record TokenBucket(double tokens, long atMillis) {

    static TokenBucket full(long burst, long nowMillis) {
        return new TokenBucket(burst, nowMillis);
    }

    /** The bucket at {@code nowMillis}, refilled; a clock behind {@link #atMillis} (another replica's) adds nothing. */
    TokenBucket at(long nowMillis, long perMinute, long burst) {
        long elapsed = Math.max(0, nowMillis - atMillis);
        return new TokenBucket(Math.min(burst, tokens + elapsed * perMinute / 60_000.0), Math.max(atMillis, nowMillis));
    }

    boolean hasToken() {
        return tokens >= 1;
    }

    TokenBucket taken() {
        return new TokenBucket(tokens - 1, atMillis);
    }

    /** How long until the bucket is full again (milliseconds). */
    long millisToFull(long perMinute, long burst) {
        return (long) Math.ceil((burst - tokens) * 60_000.0 / perMinute);
    }

    /** What the client is told after a take ({@code allowed}) or a refusal, the bucket being this one. */
    RateLimiter.Decision decision(boolean allowed, long perMinute, long burst) {
        long nextToken = hasToken() ? 0 : (long) Math.ceil((1 - tokens) * 60_000.0 / perMinute);
        return new RateLimiter.Decision(allowed, burst, (long) Math.floor(tokens),
                ceilSeconds(atMillis + millisToFull(perMinute, burst)), ceilSeconds(atMillis + nextToken));
    }

    private static long ceilSeconds(long epochMillis) {
        return (epochMillis + 999) / 1000;
    }
}
