package dev.docsassistant.model;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.ground.Json;

/**
 * What the stream step needs from one {@code chat.completion.chunk}: the first choice's content delta, tool-call
 * fragments and finish reason, and the usage. Read with Jackson's streaming parser, skipping every other field
 * unread: a chunk arrives per token, and a tree of it (a map, a node and a string for each of its dozen fields) was
 * most of what a token allocated; then a parser per chunk was (see {@link Parser}), then a record per chunk. So a
 * stream's {@link Parser} fills one chunk in turn: what {@link Parser#parse} returns holds until its next call.
 */
final class ChatCompletionChunk {

    private static final ObjectMapper JSON = Json.mapper();
    // A stream's parser keeps its buffers for the stream's life and may be dropped mid-read when the stream is
    // aborted: buffers of its own, never returned to the pool the other parsers share.
    private static final JsonFactory STREAM_PARSERS = JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.nonRecyclingPool()).build();

    private String content = "";
    private JsonNode toolCalls;
    private String finishReason;
    private Usage usage;
    // the stream's, not the chunk's: read from the first chunk that has them, then skipped (one chunk per token)
    private String responseId;
    private String responseModel;

    private ChatCompletionChunk() {
    }

    /** The text delta, empty when there is none. */
    String content() {
        return content;
    }

    /** The {@code tool_calls} fragments as they came, or null (rare: read as a tree). */
    JsonNode toolCalls() {
        return toolCalls;
    }

    /** OpenAI's finish reason, or null until the last chunk. */
    String finishReason() {
        return finishReason;
    }

    /** The response's id, from the stream's first chunk that has one; null until then. */
    String responseId() {
        return responseId;
    }

    /** The model that answers, as the server names it, from the stream's first chunk that has it; null until then. */
    String responseModel() {
        return responseModel;
    }

    /** The token counts, or null when the chunk has none. */
    Usage usage() {
        return usage;
    }

    /** Whether the chunk shows the model at work: text, a tool call, the finish reason or the usage. */
    boolean carriesToken() {
        return usage != null || !content.isEmpty() || toolCalls != null || finishReason != null;
    }

    /**
     * Reads the chunks of one stream. A chunk arrives per token: one non-blocking parser is fed each event's data
     * in turn, so the parser, its buffers and its contexts are made once per stream rather than once per token.
     * Not thread-safe, like the stream.
     */
    static final class Parser {

        private final JsonParser parser;
        private final JsonParser whole; // reads one chunk: fails where the chunk is cut short instead of waiting
        private final ByteArrayFeeder input;
        private final ChatCompletionChunk chunk = new ChatCompletionChunk();

        Parser() {
            try {
                parser = STREAM_PARSERS.createNonBlockingByteArrayParser();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // the non-blocking parser of a byte array reads nothing yet
            }
            input = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
            whole = new JsonParserDelegate(parser) {
                @Override
                public JsonToken nextToken() throws IOException {
                    JsonToken token = super.nextToken();
                    if (token == JsonToken.NOT_AVAILABLE) {
                        throw new JsonParseException(this, "The model server sent a chunk cut short");
                    }
                    return token;
                }
            };
        }

        /**
         * Reads a chunk from an event's data into this parser's chunk, which it returns: valid until the next call.
         *
         * @throws IOException when it is not JSON, or when it reports an error (as OpenAI does mid-stream)
         */
        ChatCompletionChunk parse(byte[] data, int length) throws IOException {
            chunk.content = "";
            chunk.toolCalls = null;
            chunk.finishReason = null;
            chunk.usage = null;
            int start = 0;
            while (start < length && Character.isWhitespace(data[start])) {
                start++;
            }
            if (start == length || data[start] != '{') {
                skipOther(data, start, length);
                return chunk;
            }
            input.feedInput(data, start, length);
            whole.nextToken(); // the object's start
            while (whole.nextToken() == JsonToken.FIELD_NAME) {
                String field = whole.currentName();
                JsonToken value = whole.nextToken();
                switch (field) {
                    case "choices" -> chunk.choices(whole, value);
                    case "usage" -> chunk.usage(whole, value);
                    case "id" -> chunk.responseId = once(chunk.responseId, whole, value);
                    case "model" -> chunk.responseModel = once(chunk.responseModel, whole, value);
                    case "error" -> throw new IOException("The model server sent an error event");
                    default -> whole.skipChildren();
                }
            }
            if (parser.nextToken() != JsonToken.NOT_AVAILABLE) { // past the spaces after it, if any
                throw new JsonParseException(parser, "The model server sent more than one JSON value in an event");
            }
            return chunk;
        }

        /**
         * After the stream's last chunk, on the thread that read it: the field names this parser met join the ones
         * every new parser starts with, so the next streams' parsers do not copy the table to add them.
         */
        void end() throws IOException {
            parser.close();
        }

        /** A string the stream sends in every chunk: read the first time, skipped after. */
        private static String once(String read, JsonParser parser, JsonToken value) throws IOException {
            if (read != null || value != JsonToken.VALUE_STRING) {
                parser.skipChildren();
                return read;
            }
            return parser.getText();
        }

        /** Data that is not an object: JSON that is no chunk has nothing in it, and what is not JSON fails. */
        private static void skipOther(byte[] data, int start, int length) throws IOException {
            try (JsonParser value = STREAM_PARSERS.createParser(data, start, length - start)) {
                value.nextToken();
                value.skipChildren();
            }
        }
    }

    /** The first choice; any others are skipped (the request asks for one). */
    private void choices(JsonParser parser, JsonToken value) throws IOException {
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

    private void usage(JsonParser parser, JsonToken value) throws IOException {
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
