package dev.docsassistant.sources;

import java.time.Duration;

/**
 * What one sync may cost, whoever wrote the source: a hostile repository or site is cut off at these bounds and the
 * sync fails, the last good index still serving.
 *
 * @param maxRepositoryBytes what a repository's fetched objects may take on disk
 * @param maxFiles           files of the indexed folder (a repository's {@code path}) or pages of a site
 * @param maxFileBytes       one file or one fetched page
 * @param maxSiteBytes       all pages of a site together
 * @param timeout            each network operation (connect, read, one HTTP request)
 * @param requestDelay       the pause between two requests to a site (politeness)
 * @param allowPrivate       whether a site may be on a loopback, link-local or private address
 */
public record SourceLimits(long maxRepositoryBytes, int maxFiles, long maxFileBytes, long maxSiteBytes,
        Duration timeout, Duration requestDelay, boolean allowPrivate) {

    public SourceLimits(long maxRepositoryBytes, int maxFiles, long maxFileBytes, long maxSiteBytes,
            int timeoutSeconds, int requestDelayMillis, boolean allowPrivate) {
        this(maxRepositoryBytes, maxFiles, maxFileBytes, maxSiteBytes, Duration.ofSeconds(timeoutSeconds),
                Duration.ofMillis(requestDelayMillis), allowPrivate);
    }
}
