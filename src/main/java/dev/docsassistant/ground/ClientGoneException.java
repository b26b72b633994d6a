package dev.docsassistant.ground;

import dev.docsassistant.ground.ApiException;

/**
 * The client went away before the answer began, and the model call made for it was given up. Nobody reads the
 * response; errors.yaml answers 499 (nginx's "client closed request") so that the request log and 5xx alerts do not
 * count it as a failure of the service or of the model.
 */
public class ClientGoneException extends ApiException {

    public ClientGoneException() {
        super("client_closed_request", "The client went away before the answer began", null);
    }
}
