package dev.docsassistant.model;

import dev.docsassistant.request.Attachment;

/** A language model, or anything that answers like one. Named {@code <provider>Model} in the routes. */
public interface AnswerModel {

    /**
     * Starts answering. Failures that happen before any text exists (an unreachable upstream) are thrown here,
     * while the client can still get a plain HTTP error.
     */
    ModelReply answer(ModelRequest request) throws Exception;

    /** Whether it reads this attachment of the question; the stream tells the reader of those it does not. */
    default boolean reads(Attachment attachment) {
        return false;
    }
}
