package dev.docsassistant.auth;

import dev.docsassistant.web.ApiException;

public class ForbiddenException extends ApiException {

    public ForbiddenException(String detail) {
        this("forbidden", detail);
    }

    protected ForbiddenException(String code, String detail) {
        super(code, detail, null);
    }
}
