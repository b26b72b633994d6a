package dev.docsassistant.ratelimit;

import dev.docsassistant.web.ApiException;

public class RateLimitExceededException extends ApiException {

    public RateLimitExceededException(String detail) {
        super("rate_limited", detail, null);
    }
}
