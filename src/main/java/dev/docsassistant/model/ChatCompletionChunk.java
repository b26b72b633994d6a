package dev.docsassistant.model;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.config.Json;

/**
 * What the stream step needs from one {@code chat.completion.chunk}: the first choice's content delta, tool-call
 * fragments and finish reason, and the usage. Read with Jackson's streaming parser, skipping every other field
 * unread: a chunk arrives per token, and a tree of it (a map, a node and a string for each of its dozen fields) was
 * most of what a token allocated.
 *
 * @param content      the text delta, empty when there is none
 * @param toolCalls    the {@code tool_calls} fragments as they came, or null (rare: read as a tree)
 * @param finishReason OpenAI's finish reason, or null until the last chunk
 * @param usage        the token counts, or null when the chunk has none
 */
record ChatCompletionChunk(String content, JsonNode toolCalls, String finishReason, Usage usage) {

    private static final ObjectMapper JSON = Json.mapper();
    private static final JsonFactory FACTORY = JSON.getFactory();

    /**
     * Reads a chunk from an event's data.
     *
     * @throws IOException when it is not JSON, or when it reports an error (as OpenAI does mid-stream)
     */
    static ChatCompletionChunk parse(byte[] data, int length) throws IOException {
        try (JsonParser parser = FACTORY.createParser(data, 0, length)) {
            Reader reader = new Reader();
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return reader.chunk(); // not a chunk: nothing in it
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "choices" -> reader.choices(parser, value);
                    case "usage" -> reader.usage(parser, value);
                    case "error" -> throw new IOException("The model server sent an error event");
                    default -> parser.skipChildren();
                }
            }
            return reader.chunk();
        }
    }

    /** Whether the chunk shows the model at work: text, a tool call, the finish reason or the usage. */
    boolean carriesToken() {
        return usage != null || !content.isEmpty() || toolCalls != null || finishReason != null;
    }

    /** The fields of one chunk as the parser meets them. */
    private static final class Reader {
        String content = "";
        JsonNode toolCalls;
        String finishReason;
        Usage usage;

        ChatCompletionChunk chunk() {
            return new ChatCompletionChunk(content, toolCalls, finishReason, usage);
        }

        /** The first choice; any others are skipped (the request asks for one). */
        void choices(JsonParser parser, JsonToken value) throws IOException {
            if (value != JsonToken.START_ARRAY) {
                parser.skipChildren();
                return;
            }
            if (parser.nextToken() == JsonToken.START_OBJECT) {
                choice(parser);
            }
            while (parser.currentToken() != JsonToken.END_ARRAY) {
                parser.skipChildren();
                parser.nextToken();
            }
        }

        private void choice(JsonParser parser) throws IOException {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("delta".equals(field) && value == JsonToken.START_OBJECT) {
                    delta(parser);
                } else if ("finish_reason".equals(field) && value == JsonToken.VALUE_STRING) {
                    finishReason = parser.getText();
                } else {
                    parser.skipChildren();
                }
            }
            parser.nextToken(); // past the choice's end
        }

        private void delta(JsonParser parser) throws IOException {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("content".equals(field) && value == JsonToken.VALUE_STRING) {
                    content = parser.getText();
                } else if ("tool_calls".equals(field)) {
                    toolCalls = JSON.readTree(parser);
                } else {
                    parser.skipChildren();
                }
            }
        }

        void usage(JsonParser parser, JsonToken value) throws IOException {
            if (value != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return;
            }
            long prompt = 0;
            long completion = 0;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken number = parser.nextToken();
                if ("prompt_tokens".equals(field) && number == JsonToken.VALUE_NUMBER_INT) {
                    prompt = parser.getLongValue();
                } else if ("completion_tokens".equals(field) && number == JsonToken.VALUE_NUMBER_INT) {
                    completion = parser.getLongValue();
                } else {
                    parser.skipChildren();
                }
            }
            usage = new Usage(prompt, completion);
        }
    }
}
