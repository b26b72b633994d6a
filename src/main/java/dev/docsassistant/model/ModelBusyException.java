package dev.docsassistant.model;

import dev.docsassistant.ground.ApiException;

/**
 * No model call can start now: this instance is at its cap on concurrent model calls, or the upstream's circuit
 * breaker is open. Answered 503 with {@code Retry-After}.
 */
public class ModelBusyException extends ApiException {

    private final long retryAfterSeconds;

    public ModelBusyException(String code, String detail, long retryAfterSeconds) {
        super(code, detail, null);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    @Override
    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
