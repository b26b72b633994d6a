package dev.docsassistant.request;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonTypeIdResolver;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * The parts of an AI SDK v5+ {@code UIMessage}, discriminated by {@code type}. Besides the kinds the assistant
 * reads, the kinds a real v5/v6 client echoes back from earlier answers ({@code tool-<name>}, {@code dynamic-tool},
 * {@code data-<name>}, {@code source-document}) are accepted. Each part knows its equivalent in the AI SDK v4 shape
 * {@code /v1} takes ({@link #toMessagePart()}), the one request shape the later steps read.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.CUSTOM, property = "type", visible = true)
@JsonTypeIdResolver(PrefixTypeIdResolver.class)
@JsonSubTypes({
        @JsonSubTypes.Type(value = MessagePartV2.Text.class, name = "text"),
        @JsonSubTypes.Type(value = MessagePartV2.Reasoning.class, name = "reasoning"),
        @JsonSubTypes.Type(value = MessagePartV2.SourceUrl.class, name = "source-url"),
        @JsonSubTypes.Type(value = MessagePartV2.SourceDocument.class, name = "source-document"),
        @JsonSubTypes.Type(value = MessagePartV2.File.class, name = "file"),
        @JsonSubTypes.Type(value = MessagePartV2.StepStart.class, name = "step-start"),
        @JsonSubTypes.Type(value = MessagePartV2.Tool.class, name = "tool-*"),
        @JsonSubTypes.Type(value = MessagePartV2.DynamicTool.class, name = "dynamic-tool"),
        @JsonSubTypes.Type(value = MessagePartV2.Data.class, name = "data-*")
})
public sealed interface MessagePartV2 {

    /** The same part in the AI SDK v4 shape, or null when v4 has no such part (it is then left out). */
    MessagePart toMessagePart();

    record Text(String text) implements MessagePartV2 {
        @Override
        public MessagePart toMessagePart() {
            return new MessagePart.Text(text);
        }
    }

    record Reasoning(String text) implements MessagePartV2 {
        @Override
        public MessagePart toMessagePart() {
            return new MessagePart.Reasoning(text, null);
        }
    }

    record SourceUrl(String sourceId, String url, String title) implements MessagePartV2 {
        @Override
        public MessagePart toMessagePart() {
            return new MessagePart.Source(new MessagePart.UrlSource(sourceId, url, title));
        }
    }

    record SourceDocument(String sourceId, String mediaType, String title, String filename) implements MessagePartV2 {
        @Override
        public MessagePart toMessagePart() {
            return null;
        }
    }

    /** In v4 terms an attachment, not a part: {@link UiMessageV2#toUiMessage()} makes it one. */
    record File(String mediaType, String filename, String url) implements MessagePartV2 {
        @Override
        public MessagePart toMessagePart() {
            return null;
        }
    }

    record StepStart() implements MessagePartV2 {
        @Override
        public MessagePart toMessagePart() {
            return new MessagePart.StepStart();
        }
    }

    /** A call of a tool the client knows by name: {@code type} is {@code tool-<toolName>}. */
    record Tool(String type, String toolCallId, String state, JsonNode input, JsonNode output, String errorText)
            implements MessagePartV2 {

        public String toolName() {
            return type.substring("tool-".length());
        }

        @Override
        public MessagePart toMessagePart() {
            return invocation(toolCallId, toolName(), state, input, output, errorText);
        }
    }

    /** A call of a tool the client did not declare (MCP tools, say). */
    record DynamicTool(String toolName, String toolCallId, String state, JsonNode input, JsonNode output,
            String errorText) implements MessagePartV2 {
        @Override
        public MessagePart toMessagePart() {
            return invocation(toolCallId, toolName, state, input, output, errorText);
        }
    }

    /** Application data a server streamed as {@code data-<name>}; only the client uses it. */
    record Data(String type, String id, JsonNode data) implements MessagePartV2 {
        @Override
        public MessagePart toMessagePart() {
            return null;
        }
    }

    /** v5 states: input-streaming, input-available, output-available, output-error (v6 adds approval states). */
    private static MessagePart invocation(String toolCallId, String toolName, String state, JsonNode input,
            JsonNode output, String errorText) {
        MessagePart.Invocation invocation = switch (state == null ? "" : state) {
            case "input-streaming" -> new MessagePart.Invocation.PartialCall(toolCallId, toolName, input, null);
            case "output-available" -> new MessagePart.Invocation.Result(toolCallId, toolName, input, output, null);
            case "output-error" -> new MessagePart.Invocation.Result(toolCallId, toolName, input,
                    JsonNodeFactory.instance.objectNode().put("error", errorText), null);
            default -> new MessagePart.Invocation.Call(toolCallId, toolName, input, null);
        };
        return new MessagePart.ToolInvocation(invocation);
    }
}
