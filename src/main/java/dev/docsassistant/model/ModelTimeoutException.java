package dev.docsassistant.model;

import dev.docsassistant.ground.ApiException;

/** The model server went quiet: no first token, or no next one, in time. 504 before the first byte. */
public class ModelTimeoutException extends ApiException {

    public ModelTimeoutException(String detail) {
        super("model_timeout", detail, null);
    }
}
