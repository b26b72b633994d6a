package dev.docsassistant.model;

/** Tokens spent on one answer, as the AI SDK reports them. */
public record Usage(long promptTokens, long completionTokens) {

    public static final Usage NONE = new Usage(0, 0);
}
