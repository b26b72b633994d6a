package dev.docsassistant.request;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body an AI SDK v5+ {@code DefaultChatTransport} posts to {@code /v2/assistant/{domain}/message}: the chat
 * {@code id}, the UI messages, the {@code trigger} (and {@code messageId} when regenerating), plus the widget's
 * {@code body} fields, which are v1's. {@link #toChatRequest()} gives the one request shape the later steps read.
 */
public record ChatRequestV2(
        String id,
        List<UiMessageV2> messages,
        Trigger trigger,
        String messageId,
        String fp,
        String threadId,
        String threadKey,
        Integer retrievalPageSize,
        ChatRequest.Filter filter,
        List<ChatRequest.ContextItem> context,
        String currentPath) {

    /** Why the client sends: a new user message, or a request to answer the last one again. */
    public enum Trigger {
        @JsonProperty("submit-message") SUBMIT_MESSAGE,
        @JsonProperty("regenerate-message") REGENERATE_MESSAGE
    }

    ChatRequest toChatRequest() {
        return new ChatRequest(fp, messages.stream().map(UiMessageV2::toUiMessage).toList(), threadId, threadKey,
                retrievalPageSize, filter, context, currentPath);
    }
}
