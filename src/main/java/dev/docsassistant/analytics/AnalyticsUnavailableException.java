package dev.docsassistant.analytics;

import dev.docsassistant.ground.ApiException;

/** The store of record cannot be reached: the analytics endpoints answer 503 (answers go on without it). */
public class AnalyticsUnavailableException extends ApiException {

    private static final long RETRY_AFTER_SECONDS = 30;

    AnalyticsUnavailableException() {
        super("analytics_unavailable", "The analytics store is unavailable; please try again shortly.", null);
    }

    @Override
    public Long retryAfterSeconds() {
        return RETRY_AFTER_SECONDS;
    }
}
