package dev.docsassistant.request;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * An AI SDK v5+ {@code UIMessage}: no {@code content}, the text is in its parts. {@code metadata} is what the
 * stream's {@code messageMetadata} set (the thread id, for our answers).
 */
public record UiMessageV2(String id, Role role, List<MessagePartV2> parts, JsonNode metadata) {

    /**
     * The message in the AI SDK v4 shape {@code /v1} takes: its text as {@code content}, its parts that v4 has, and
     * its {@code file} parts as v4's {@code experimental_attachments}.
     */
    UiMessage toUiMessage() {
        String text = parts.stream().filter(MessagePartV2.Text.class::isInstance)
                .map(part -> ((MessagePartV2.Text) part).text()).collect(Collectors.joining("\n"));
        List<MessagePart> v4Parts = parts.stream().map(MessagePartV2::toMessagePart).filter(Objects::nonNull).toList();
        ArrayNode attachments = JsonNodeFactory.instance.arrayNode();
        for (MessagePartV2 part : parts) {
            if (part instanceof MessagePartV2.File file) {
                attachments.addObject().put("name", file.filename()).put("contentType", file.mediaType())
                        .put("url", file.url());
            }
        }
        return new UiMessage(id, role, text, v4Parts, null, null, attachments.isEmpty() ? null : attachments);
    }
}
