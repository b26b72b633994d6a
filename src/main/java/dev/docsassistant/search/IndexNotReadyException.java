package dev.docsassistant.search;

import dev.docsassistant.ground.ApiException;

/**
 * A domain with no index to answer from: still being built ({@code index_loading}), or never built since its docs
 * could not be read ({@code docs_unavailable}, naming the domain and whether its source was out of reach or its docs
 * at fault; what exactly failed is the operator's, in the log and the health check, never the public client's).
 * Other domains serve meanwhile.
 */
public class IndexNotReadyException extends ApiException {

    private final Long retryAfterSeconds;

    public IndexNotReadyException(String domain, DomainIndexes.Failure failure, Long retryAfterSeconds) {
        super(failure != null ? "docs_unavailable" : "index_loading", failure != null
                ? "The documentation of '" + domain + "' is unavailable: "
                        + (failure.unreachable() ? "its source could not be reached" : "it could not be read or indexed")
                        + "; the operator has been told"
                : "The documentation of '" + domain + "' is still being indexed; retry shortly", null);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    @Override
    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
