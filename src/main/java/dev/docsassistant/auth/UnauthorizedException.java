package dev.docsassistant.auth;

import dev.docsassistant.web.ApiException;

public class UnauthorizedException extends ApiException {

    public UnauthorizedException(String detail) {
        super("unauthorized", detail, null);
    }
}
