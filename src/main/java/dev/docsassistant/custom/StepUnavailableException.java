package dev.docsassistant.custom;

import dev.docsassistant.ground.ApiException;

/** An own step of the request's slot is not running (stopped, or failed to start): the request is refused, not let by. */
public class StepUnavailableException extends ApiException {

    public StepUnavailableException() {
        super("step_unavailable", "The assistant is briefly unavailable; please try again shortly.", null);
    }
}
