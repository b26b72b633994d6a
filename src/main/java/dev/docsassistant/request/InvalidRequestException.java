package dev.docsassistant.request;

import dev.docsassistant.web.ApiException;

public class InvalidRequestException extends ApiException {

    public InvalidRequestException(String field, String detail) {
        super("invalid_request", detail, field);
    }
}
