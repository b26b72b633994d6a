package dev.docsassistant.sources;

import java.time.Duration;

/**
 * What one sync may cost, whoever wrote the source: a hostile repository or site is cut off at these bounds and the
 * sync fails, the last good index still serving.
 *
 * @param maxRepositoryBytes what a repository's fetched objects may take on disk
 * @param maxFiles           files of the indexed folder (a repository's {@code path}) or pages of a site
 * @param maxFileBytes       one file or one fetched page (also each object a repository's fetch may inflate)
 * @param maxSiteBytes       all pages of a site together
 * @param timeoutSeconds     each network operation (connect, read, one HTTP request with its whole body)
 * @param requestDelayMillis the pause between two requests to a site (politeness)
 * @param allowPrivate       whether a source may be on a loopback, link-local or private address
 * @param syncTimeoutSeconds one whole sync, however its source answers
 * @param maxRequests        requests one sync of a site may send (redirects count)
 * @param maxFailures        pages of a site that may fail (absent, refused, unreadable) before its sync fails
 * @param maxInflatedBytes   all objects one fetch of a repository inflates
 * @param maxDeltaBytes      the objects one fetch builds in memory: deltas' results (a chain costs its depth), trees
 */
public record SourceLimits(long maxRepositoryBytes, int maxFiles, long maxFileBytes, long maxSiteBytes,
        int timeoutSeconds, int requestDelayMillis, boolean allowPrivate, int syncTimeoutSeconds, int maxRequests,
        int maxFailures, long maxInflatedBytes, long maxDeltaBytes) {

    public Duration timeout() {
        return Duration.ofSeconds(timeoutSeconds);
    }

    public Duration requestDelay() {
        return Duration.ofMillis(requestDelayMillis);
    }

    public Duration syncTimeout() {
        return Duration.ofSeconds(syncTimeoutSeconds);
    }
}
