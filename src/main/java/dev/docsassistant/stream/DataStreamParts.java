package dev.docsassistant.stream;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
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

    /** Per token, so written without the object mapper: only the quoted delta and the part itself are allocated. */
    public static String text(String delta) {
        StringBuilder part = new StringBuilder(delta.length() + 8).append("0:\"");
        JsonStringEncoder.getInstance().quoteAsString(delta, part);
        return part.append("\"\n").toString();
    }

    public static String finishData(String threadId) {
        return part('2', List.of(Map.of("type", "finish", "threadId", threadId)));
    }

    public static String finishMessage(Usage usage, String threadId) {
        return part('d', new FinishMessage("stop", usage, threadId));
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
