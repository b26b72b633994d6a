package dev.docsassistant.auth;

import dev.docsassistant.web.ApiException;

public class ForbiddenException extends ApiException {

    public ForbiddenException(String detail) {
        super("forbidden", detail, null);
    }
}
