package dev.docsassistant.request;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code POST /v1/assistant/{domain}/feedback}: the reader's rating of one answer, named by the thread
 * and the message id the stream gave it, from the reader ({@code fp}) whose thread it is.
 */
public record FeedbackRequest(String fp, String threadId, String messageId, Rating rating, String comment) {

    public enum Rating {
        @JsonProperty("up") UP("up"),
        @JsonProperty("down") DOWN("down");

        private final String wire;

        Rating(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    /** The rules binding cannot express; every identifier is bounded like the message endpoint's. */
    public void validate(int maxCommentChars) {
        ValidateRequest.require(fp, "fp", "(the reader's fp, as sent with the question)");
        ValidateRequest.require(threadId, "threadId", "(the threadId of the answer's finish event)");
        ValidateRequest.require(messageId, "messageId", "(the id the stream gave the answer)");
        ValidateRequest.require(rating, "rating", "(up or down)");
        ValidateRequest.maxLength(fp, "fp", ValidateRequest.MAX_IDENTIFIER);
        ValidateRequest.maxLength(threadId, "threadId", ValidateRequest.MAX_IDENTIFIER);
        ValidateRequest.maxLength(messageId, "messageId", ValidateRequest.MAX_IDENTIFIER);
        ValidateRequest.maxLength(comment, "comment", maxCommentChars);
    }
}
