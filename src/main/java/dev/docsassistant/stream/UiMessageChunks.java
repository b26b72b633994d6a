package dev.docsassistant.stream;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.Json;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.Usage;
import dev.docsassistant.search.SearchHit;

/**
 * The AI SDK v5+ UI message stream: server-sent events, one JSON chunk each ({@code data: {...}\n\n}), ending
 * with {@code data: [DONE]}. Written for the strictest client, {@code ai@5.0.0}, which rejects any field its
 * schema lacks: the thread id travels only inside {@code messageMetadata}, {@code finish} has no
 * {@code finishReason} (unknown before ai@5.0.92, and v6+ reject {@code "unknown"}), absent values are left out
 * rather than sent as null, and usage is not sent (no chunk carries it).
 */
public final class UiMessageChunks implements AnswerEncoder {

    private static final ObjectMapper JSON = Json.mapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private final EncodedHits encodedHits = new EncodedHits(JSON);

    @Override
    public Map<String, String> headers(Tenant tenant) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "text/event-stream");
        headers.put("Cache-Control", "no-cache");
        headers.put("Connection", "keep-alive");
        headers.put("x-vercel-ai-ui-message-stream", "v1");
        headers.put("X-Accel-Buffering", "no");
        return headers;
    }

    @Override
    public String start(String messageId, String threadId) {
        return chunk(new Start("start", messageId, Map.of("threadId", threadId)));
    }

    @Override
    public String startStep(String stepId) {
        return chunk(Map.of("type", "start-step"));
    }

    @Override
    public String searchCall(String toolCallId, String query) {
        return chunk(new ToolInput("tool-input-available", toolCallId, "search", Map.of("query", query)));
    }

    @Override
    public String searchResult(String toolCallId, List<SearchHit> hits) {
        // as in DataStreamParts: the encoded hits copied in once, not through Jackson's writer and a concatenation
        return "data: {\"type\":\"tool-output-available\",\"toolCallId\":" + EncodedHits.quoted(toolCallId)
                + ",\"output\":" + encodedHits.of(hits) + "}\n\n";
    }

    @Override
    public String finishStep(String finishReason, Usage usage) {
        return chunk(Map.of("type", "finish-step"));
    }

    @Override
    public String source(Source source) {
        return chunk(new SourceUrl("source-url", source.id(), source.url(), source.title()));
    }

    @Override
    public String textStart(String textId) {
        return chunk(new Text("text-start", textId, null));
    }

    @Override
    public String textDelta(String textId, String delta) {
        return chunk(new Text("text-delta", textId, delta));
    }

    @Override
    public String textEnd(String textId) {
        return chunk(new Text("text-end", textId, null));
    }

    /** A {@code data-notice} part, which the client keeps in the message's parts. */
    @Override
    public String notice(String code, String message) {
        return chunk(new DataNotice("data-notice", new Notice(code, message)));
    }

    @Override
    public String finish(String finishReason, Usage usage, String threadId) {
        return chunk(new Finish("finish", Map.of("threadId", threadId)));
    }

    @Override
    public String error(String message) {
        return chunk(new Error("error", message));
    }

    @Override
    public String end() {
        return "data: [DONE]\n\n";
    }

    /** An SSE comment: every SSE parser skips it. */
    @Override
    public String keepAlive() {
        return ": keep-alive\n\n";
    }

    private static String chunk(Object value) {
        try {
            return "data: " + JSON.writeValueAsString(value) + "\n\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot encode chunk " + value, e);
        }
    }

    // Not private: Blackbird (config/Json) skips private classes, whose properties Jackson reads by reflection.
    record Start(String type, String messageId, Map<String, String> messageMetadata) {
    }

    record ToolInput(String type, String toolCallId, String toolName, Map<String, String> input) {
    }

    record SourceUrl(String type, String sourceId, String url, String title) {
    }

    record Text(String type, String id, String delta) {
    }

    record DataNotice(String type, Notice data) {
    }

    record Notice(String code, String message) {
    }

    record Finish(String type, Map<String, String> messageMetadata) {
    }

    record Error(String type, String errorText) {
    }
}
