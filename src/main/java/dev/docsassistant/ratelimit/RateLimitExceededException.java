package dev.docsassistant.ratelimit;

import dev.docsassistant.ground.ApiException;

public class RateLimitExceededException extends ApiException {

    public RateLimitExceededException(String detail) {
        super("rate_limited", detail, null);
    }
}
