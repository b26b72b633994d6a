package dev.docsassistant.request;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

/** An AI SDK v4 {@code UIMessage}, as {@code useChat} sends it with {@code sendExtraMessageFields: true}. */
public record UiMessage(
        String id,
        Role role,
        String content,
        List<MessagePart> parts,
        String createdAt,
        JsonNode annotations,
        @JsonProperty("experimental_attachments") JsonNode experimentalAttachments) {

    /** The files attached to it ({@code experimental_attachments}; a v2 message's {@code file} parts). */
    public List<Attachment> attachments() {
        return Attachment.of(experimentalAttachments);
    }

    /** The message's text: its text parts when it has them, else its content. */
    public String text() {
        if (parts != null) {
            StringBuilder text = new StringBuilder();
            for (MessagePart part : parts) {
                if (part instanceof MessagePart.Text t) {
                    text.append(text.isEmpty() ? "" : "\n").append(t.text());
                }
            }
            if (!text.isEmpty()) {
                return text.toString();
            }
        }
        return content == null ? "" : content;
    }
}
