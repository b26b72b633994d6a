package dev.docsassistant.request;

import dev.docsassistant.ground.ApiException;

/**
 * The request bodies this instance holds at once are at {@code assistant.http.body-budget-bytes}: this one is not
 * read now. Answered 503 with {@code Retry-After}, so that many large requests (attachments) at once slow their
 * senders down rather than exhaust the heap.
 */
public class BodiesBusyException extends ApiException {

    public BodiesBusyException() {
        super("bodies_busy", "This instance is reading as many large requests as it can hold; please try again"
                + " in a moment.", null);
    }

    @Override
    public Long retryAfterSeconds() {
        return 1L;
    }
}
