package dev.docsassistant.ratelimit;

import java.time.Duration;

/**
 * The counters behind every quota: fixed windows (requests per hour, day, 30 days), token buckets (a short-window
 * rate with a burst) and leases (requests open at once). Each call both counts the request and says whether it fits,
 * in one atomic step, so N concurrent requests against a limit of N all pass and the N+1st does not. A shared (Redis)
 * store implements the same contract.
 */
public interface RateLimiter {

    /**
     * Counts one request for {@code key} in the current window of length {@code window}.
     *
     * @return the decision and what is left of the window
     */
    Decision acquire(String key, long limit, Duration window);

    /**
     * Takes one token from {@code key}'s bucket, which holds at most {@code burst} tokens and gains {@code perMinute}
     * a minute (a new key's bucket is full). Refused when less than one token is left.
     *
     * @return the decision: {@code burst} as the limit, whole tokens left, when the bucket is full again, and when
     *         the next token comes
     */
    Decision take(String key, long perMinute, long burst);

    /**
     * Opens one of {@code key}'s at most {@code max} concurrent requests, whoever asks: the lease holds its place until released
     * (on a shared store, also until it expires, should its instance die without releasing it).
     *
     * @return a granted lease (release it when the request ends), or a refused one (nothing to release)
     */
    default Lease open(String key, long max) {
        return open(key, max, null, 0);
    }

    /**
     * Opens one of {@code key}'s at most {@code max} concurrent requests for {@code holder}: a holder that already
     * holds one of them cannot take the last {@code reserve} places, which stay for holders that hold none (so a few
     * busy holders cannot take every place). Counted in one atomic step as {@link #open(String, long)} is; of two
     * first requests of one holder at once, at most one may take a reserved place.
     *
     * @param holder who asks (a client address), or null for no reserve
     * @return a granted lease (release it when the request ends), or a refused one (nothing to release)
     */
    Lease open(String key, long max, String holder, long reserve);

    /** When the fixed window holding {@code nowMillis} ends: windows are aligned to the epoch (hours, UTC days). */
    static long windowEndMillis(long nowMillis, Duration window) {
        long length = window.toMillis();
        return (nowMillis / length + 1) * length;
    }

    /**
     * @param resetEpochSecond when the limit is whole again, in epoch seconds
     * @param retryEpochSecond when a refused request may pass: the reset for a window, sooner for a bucket
     */
    record Decision(boolean allowed, long limit, long remaining, long resetEpochSecond, long retryEpochSecond) {

        public Decision(boolean allowed, long limit, long remaining, long resetEpochSecond) {
            this(allowed, limit, remaining, resetEpochSecond, resetEpochSecond);
        }

        public long retryAfterSeconds(long nowEpochSecond) {
            return Math.max(1, retryEpochSecond - nowEpochSecond);
        }
    }

    /** A place among a key's concurrent requests; {@link #release()} gives it back (once, however often called). */
    interface Lease {

        boolean granted();

        long limit();

        /** Places still free once this one was taken (or refused). */
        long remaining();

        void release();
    }
}
