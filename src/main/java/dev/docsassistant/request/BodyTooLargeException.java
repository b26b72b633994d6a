package dev.docsassistant.request;

import dev.docsassistant.ground.ApiException;

/** A request body over {@code assistant.max-body-bytes}: refused from its Content-Length, or once it passes it. */
public class BodyTooLargeException extends ApiException {

    public BodyTooLargeException(long maxBodyBytes) {
        super("body_too_large", "The request body must be at most " + maxBodyBytes + " bytes", null);
    }
}
