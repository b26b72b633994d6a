package dev.docsassistant.model;

/** A language model, or anything that answers like one. Named {@code <provider>Model} in the routes. */
public interface AnswerModel {

    /**
     * Starts answering. Failures that happen before any text exists (an unreachable upstream) are thrown here,
     * while the client can still get a plain HTTP error.
     */
    ModelReply answer(ModelRequest request) throws Exception;
}
