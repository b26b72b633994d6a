package dev.docsassistant.ground;

import dev.docsassistant.ground.ApiException;

public class InvalidRequestException extends ApiException {

    public InvalidRequestException(String field, String detail) {
        super("invalid_request", detail, field);
    }
}
