package dev.docsassistant.stream;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.Usage;
import dev.docsassistant.search.SearchHit;

/**
 * The AI SDK v4 data stream protocol: one part a line, {@code CODE:JSON\n}. Only the parts Mintlify's clients
 * expect are written; the v4 parser rejects any other line (comments and keep-alives included).
 */
public final class DataStreamParts {

    private static final ObjectMapper JSON = new ObjectMapper();

    private DataStreamParts() {
    }

    public static String startStep(String messageId) {
        return part('f', Map.of("messageId", messageId));
    }

    public static String searchCall(String toolCallId, String query) {
        return part('9', new ToolCall(toolCallId, "search", Map.of("query", query)));
    }

    public static String searchResult(String toolCallId, List<SearchHit> hits) {
        return part('a', new ToolResult(toolCallId, hits.stream()
                .map(hit -> new ToolResultItem(hit.path(), hit.url(), hit.content(), Map.of("title", hit.title())))
                .toList()));
    }

    public static String finishStep(String finishReason, Usage usage) {
        return part('e', new FinishStep(finishReason, usage, false));
    }

    public static String source(Source source) {
        return part('h', new UrlSource("url", source.id(), source.url(), source.title()));
    }

    public static String text(String delta) {
        return part('0', delta);
    }

    public static String finishData(String threadId) {
        return part('2', List.of(Map.of("type", "finish", "threadId", threadId)));
    }

    public static String finishMessage(String finishReason, Usage usage, String threadId) {
        return part('d', new FinishMessage(finishReason, usage, threadId));
    }

    /** A message annotation: something about the answer the widget may show beside it. */
    public static String annotation(String type, String code, String message) {
        return part('8', List.of(Map.of("type", type, "code", code, "message", message)));
    }

    public static String error(String message) {
        return part('3', message);
    }

    private static String part(char code, Object value) {
        try {
            return code + ":" + JSON.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot encode part " + code, e);
        }
    }

    private record ToolCall(String toolCallId, String toolName, Map<String, String> args) {
    }

    private record ToolResult(String toolCallId, List<ToolResultItem> result) {
    }

    private record ToolResultItem(String path, String url, String content, Map<String, String> metadata) {
    }

    private record FinishStep(String finishReason, Usage usage, boolean isContinued) {
    }

    private record UrlSource(String sourceType, String id, String url, String title) {
    }

    private record FinishMessage(String finishReason, Usage usage, String threadId) {
    }
}
