package dev.docsassistant.request;

import dev.docsassistant.ground.ApiException;

public class UnsupportedMediaTypeException extends ApiException {

    public UnsupportedMediaTypeException(String detail) {
        super("unsupported_media_type", detail, null);
    }
}
