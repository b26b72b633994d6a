package dev.docsassistant.auth;

import dev.docsassistant.ground.ApiException;

public class ForbiddenException extends ApiException {

    public ForbiddenException(String detail) {
        this("forbidden", detail);
    }

    protected ForbiddenException(String code, String detail) {
        super(code, detail, null);
    }
}
