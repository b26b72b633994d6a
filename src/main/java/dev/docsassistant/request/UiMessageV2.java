package dev.docsassistant.request;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An AI SDK v5+ {@code UIMessage}: no {@code content}, the text is in its parts. {@code metadata} is what the
 * stream's {@code messageMetadata} set (the thread id, for our answers).
 */
public record UiMessageV2(String id, Role role, List<MessagePartV2> parts, JsonNode metadata) {

    /** The message in the v4 shape: its text as {@code content}, its parts that v4 has. */
    UiMessage toV4() {
        String text = parts.stream().filter(MessagePartV2.Text.class::isInstance)
                .map(part -> ((MessagePartV2.Text) part).text()).collect(Collectors.joining("\n"));
        List<MessagePart> v4Parts = parts.stream().map(MessagePartV2::toV4).filter(Objects::nonNull).toList();
        return new UiMessage(id, role, text, v4Parts, null, null, null);
    }
}
