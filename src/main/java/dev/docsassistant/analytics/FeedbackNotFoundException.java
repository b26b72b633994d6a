package dev.docsassistant.analytics;

import dev.docsassistant.ground.ApiException;

/** No feedback row by that id in this domain: a status update answers 404. */
public class FeedbackNotFoundException extends ApiException {

    FeedbackNotFoundException() {
        super("feedback_not_found", "No feedback by that id in this domain", null);
    }
}
