package dev.docsassistant.web;

import dev.docsassistant.ground.ApiException;

/** A path no route serves. */
public class EndpointNotFoundException extends ApiException {

    public EndpointNotFoundException() {
        super("not_found", "No endpoint here: the assistant answers POST /v1/assistant/{domain}/message", null);
    }
}
