package dev.docsassistant.store;

import dev.docsassistant.ground.ApiException;

/** The shared store cannot be reached and the service is configured to refuse rather than go on alone. */
public class StoreUnavailableException extends ApiException {

    private final long retryAfterSeconds;

    public StoreUnavailableException(long retryAfterSeconds) {
        super("store_unavailable", "The assistant is briefly unavailable; please try again shortly.", null);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    @Override
    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
