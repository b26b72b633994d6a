package dev.docsassistant.request;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;

/** The parts of a v4 {@code UIMessage}, discriminated by {@code type}. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = MessagePart.Text.class, name = "text"),
        @JsonSubTypes.Type(value = MessagePart.Reasoning.class, name = "reasoning"),
        @JsonSubTypes.Type(value = MessagePart.StepStart.class, name = "step-start"),
        @JsonSubTypes.Type(value = MessagePart.Source.class, name = "source"),
        @JsonSubTypes.Type(value = MessagePart.ToolInvocation.class, name = "tool-invocation"),
        @JsonSubTypes.Type(value = MessagePart.File.class, name = "file")
})
public sealed interface MessagePart {

    record Text(String text) implements MessagePart {
    }

    record Reasoning(String reasoning, List<ReasoningDetail> details) implements MessagePart {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = ReasoningDetail.Text.class, name = "text"),
            @JsonSubTypes.Type(value = ReasoningDetail.Redacted.class, name = "redacted")
    })
    sealed interface ReasoningDetail {
        record Text(String text, String signature) implements ReasoningDetail {
        }

        record Redacted(String data) implements ReasoningDetail {
        }
    }

    record StepStart() implements MessagePart {
    }

    record Source(UrlSource source) implements MessagePart {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "sourceType")
    @JsonSubTypes(@JsonSubTypes.Type(value = UrlSource.class, name = "url"))
    record UrlSource(String id, String url, String title) {
    }

    record ToolInvocation(Invocation toolInvocation) implements MessagePart {
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "state")
    @JsonSubTypes({
            @JsonSubTypes.Type(value = Invocation.PartialCall.class, name = "partial-call"),
            @JsonSubTypes.Type(value = Invocation.Call.class, name = "call"),
            @JsonSubTypes.Type(value = Invocation.Result.class, name = "result")
    })
    sealed interface Invocation {
        String toolCallId();

        String toolName();

        /** Required in every state (v4's types): the call's arguments, partial ones while they stream. */
        JsonNode args();

        record PartialCall(String toolCallId, String toolName, JsonNode args, Integer step) implements Invocation {
        }

        record Call(String toolCallId, String toolName, JsonNode args, Integer step) implements Invocation {
        }

        record Result(String toolCallId, String toolName, JsonNode args, JsonNode result, Integer step)
                implements Invocation {
        }
    }

    /** Not in the documented v4 schema, but ai@4.3 clients echo files a model returned. */
    record File(String mimeType, String data) implements MessagePart {
    }
}
