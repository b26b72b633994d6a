package dev.docsassistant.stream;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.Json;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.Usage;
import dev.docsassistant.search.SearchHit;

/**
 * The AI SDK v4 data stream protocol: one part a line, {@code CODE:JSON\n}. Only the parts Mintlify's clients
 * expect are written; the v4 parser rejects any other line (comments and keep-alives included), and it has no
 * message start or text boundaries.
 */
public final class DataStreamParts implements AnswerEncoder {

    private static final ObjectMapper JSON = Json.mapper();

    private final EncodedHits encodedHits = new EncodedHits(JSON);

    /** The stream's headers; the route's deprecation step (web/Deprecation) marks v1 as deprecated. */
    @Override
    public Map<String, String> headers(Tenant tenant) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "text/plain; charset=utf-8");
        headers.put("X-Vercel-AI-Data-Stream", "v1");
        headers.put("Cache-Control", "no-cache");
        headers.put("X-Accel-Buffering", "no");
        return headers;
    }

    @Override
    public String start(String messageId, String threadId) {
        return "";
    }

    @Override
    public String startStep(String stepId) {
        return part('f', Map.of("messageId", stepId));
    }

    @Override
    public String searchCall(String toolCallId, String query) {
        return part('9', new ToolCall(toolCallId, "search", Map.of("query", query)));
    }

    @Override
    public String searchResult(String toolCallId, List<SearchHit> hits) {
        // the hits' JSON, encoded once per search result, is copied in as it is: one string made, where Jackson's
        // writer and a concatenation made two more copies of the part's 10-25 KB
        return "a:{\"toolCallId\":" + EncodedHits.quoted(toolCallId) + ",\"result\":" + encodedHits.of(hits) + "}\n";
    }

    @Override
    public String finishStep(String finishReason, Usage usage) {
        return part('e', new FinishStep(finishReason, usage, false));
    }

    @Override
    public String source(Source source) {
        return part('h', new UrlSource("url", source.id(), source.url(), source.title()));
    }

    @Override
    public String textStart(String textId) {
        return "";
    }

    /** Per token, so written without the object mapper: only the quoted delta and the part itself are allocated. */
    @Override
    public String textDelta(String textId, String delta) {
        StringBuilder part = new StringBuilder(delta.length() + 8).append("0:\"");
        JsonStringEncoder.getInstance().quoteAsString(delta, part);
        return part.append("\"\n").toString();
    }

    @Override
    public String textEnd(String textId) {
        return "";
    }

    /** The thread id twice: in a {@code 2:} data part, which useChat exposes, and in the {@code d:} finish part. */
    @Override
    public String finish(String finishReason, Usage usage, String threadId) {
        return part('2', List.of(Map.of("type", "finish", "threadId", threadId)))
                + part('d', new FinishMessage(finishReason, usage, threadId));
    }

    /** A message annotation: something about the answer the widget may show beside it. */
    @Override
    public String notice(String code, String message) {
        return part('8', List.of(Map.of("type", "notice", "code", code, "message", message)));
    }

    @Override
    public String error(String message) {
        return part('3', message);
    }

    @Override
    public String end() {
        return "";
    }

    @Override
    public String keepAlive() {
        return null;
    }

    private static String part(char code, Object value) {
        try {
            return code + ":" + JSON.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot encode part " + code, e);
        }
    }

    // Not private: Blackbird (config/Json) skips private classes, whose properties Jackson reads by reflection.
    record ToolCall(String toolCallId, String toolName, Map<String, String> args) {
    }

    record FinishStep(String finishReason, Usage usage, boolean isContinued) {
    }

    record UrlSource(String sourceType, String id, String url, String title) {
    }

    record FinishMessage(String finishReason, Usage usage, String threadId) {
    }
}
