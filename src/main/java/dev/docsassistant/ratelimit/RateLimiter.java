package dev.docsassistant.ratelimit;

import java.time.Duration;

/**
 * Counts requests in fixed windows. One call both counts the request and says whether it fits, so N concurrent
 * requests against a limit of N all pass and the N+1st does not. A shared (Redis) store implements the same contract.
 */
public interface RateLimiter {

    /**
     * Counts one request for {@code key} in the current window of length {@code window}.
     *
     * @return the decision and what is left of the window
     */
    Decision acquire(String key, long limit, Duration window);

    /** When the fixed window holding {@code nowMillis} ends: windows are aligned to the epoch (hours, UTC days). */
    static long windowEndMillis(long nowMillis, Duration window) {
        long length = window.toMillis();
        return (nowMillis / length + 1) * length;
    }

    /** @param resetEpochSecond when the window ends, in epoch seconds */
    record Decision(boolean allowed, long limit, long remaining, long resetEpochSecond) {

        public long retryAfterSeconds(long nowEpochSecond) {
            return Math.max(1, resetEpochSecond - nowEpochSecond);
        }
    }
}
