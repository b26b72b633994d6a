package dev.docsassistant.auth;

import dev.docsassistant.ground.ApiException;

public class UnauthorizedException extends ApiException {

    public UnauthorizedException(String detail) {
        super("unauthorized", detail, null);
    }
}
