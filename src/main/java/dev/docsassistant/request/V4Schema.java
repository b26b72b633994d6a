package dev.docsassistant.request;

import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import com.fasterxml.jackson.databind.JsonNode;
import dev.docsassistant.ground.InvalidRequestException;

/**
 * The fields AI SDK v4's {@code UIMessage} types (and Mintlify's v1 schema) make required, which a {@code /v1}
 * request must carry: {@code useChat} always sends them, so a body without them is not from a v4 client. Only
 * {@code /v1} bodies are held to it: a {@code /v2} message, converted to this shape, has no v4 fields to carry.
 */
final class V4Schema {

    private V4Schema() {
    }

    /** One message of a request {@link ValidateRequest} already checked (its id, role, content and parts' types). */
    static void validate(UiMessage message, String path) {
        if (message.parts() == null || message.parts().isEmpty()) {
            throw new InvalidRequestException(path + ".parts", path + ".parts is required: a non-empty array of"
                    + " parts (useChat sends it since ai@4.2)");
        }
        if (message.createdAt() != null && !isDateTime(message.createdAt())) {
            throw new InvalidRequestException(path + ".createdAt", path + ".createdAt must be a date-time (ISO 8601,"
                    + " as JSON.stringify writes a Date)");
        }
        JsonNode annotations = message.annotations();
        if (annotations != null && !annotations.isNull() && !annotations.isArray()) {
            throw new InvalidRequestException(path + ".annotations", path + ".annotations must be an array");
        }
        for (int i = 0; i < message.parts().size(); i++) {
            validate(message.parts().get(i), path + ".parts[" + i + "]");
        }
    }

    private static void validate(MessagePart part, String path) {
        if (part instanceof MessagePart.Reasoning reasoning) {
            ValidateRequest.require(reasoning.details(), path + ".details", "(an array of text or redacted details)");
            for (int i = 0; i < reasoning.details().size(); i++) {
                String at = path + ".details[" + i + "]";
                MessagePart.ReasoningDetail detail = reasoning.details().get(i);
                ValidateRequest.require(detail, at, "(an object)");
                if (detail instanceof MessagePart.ReasoningDetail.Text text) {
                    ValidateRequest.require(text.text(), at + ".text", "");
                } else if (detail instanceof MessagePart.ReasoningDetail.Redacted redacted) {
                    ValidateRequest.require(redacted.data(), at + ".data", "");
                }
            }
        } else if (part instanceof MessagePart.Source source) {
            ValidateRequest.require(source.source().id(), path + ".source.id", "");
        } else if (part instanceof MessagePart.ToolInvocation tool) {
            MessagePart.Invocation invocation = tool.toolInvocation();
            ValidateRequest.require(invocation.args(), path + ".toolInvocation.args", "(the call's arguments)");
            if (invocation instanceof MessagePart.Invocation.Result result) {
                ValidateRequest.require(result.result(), path + ".toolInvocation.result", "in state result");
            }
        }
    }

    private static boolean isDateTime(String value) {
        try {
            DateTimeFormatter.ISO_DATE_TIME.parse(value);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
