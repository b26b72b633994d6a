package dev.docsassistant.request;

import java.util.List;

/**
 * The body {@code useChat} posts to {@code /v1/assistant/{domain}/message}: the whole conversation plus the widget's
 * extra {@code body} fields. Unknown fields (the chat {@code id}, {@code revisionId}, …) are ignored.
 */
public record ChatRequest(
        String fp,
        List<UiMessage> messages,
        String threadId,
        String threadKey,
        Integer retrievalPageSize,
        Filter filter,
        List<ContextItem> context,
        String currentPath) {

    /** The exchange property holding the validated request. */
    public static final String PROPERTY = "assistant.request";

    public static final int DEFAULT_PAGE_SIZE = 5;

    public int pageSize() {
        return retrievalPageSize == null ? DEFAULT_PAGE_SIZE : retrievalPageSize;
    }

    /** The question being asked: the text of the last user message. */
    public String question() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            UiMessage message = messages.get(i);
            if (message.role() == Role.USER) {
                return message.text();
            }
        }
        return "";
    }

    /** {@code groups} comes with v2 requests (the reader's user groups); the search does not use it yet. */
    public record Filter(String version, String language, List<String> groups) {
    }

    public record ContextItem(ContextType type, String value, String path, String elementId) {
    }
}
