package dev.docsassistant.stream;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.search.Page;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.Section;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The search tool's result part is put together from the hits' cached JSON rather than written by Jackson: it must
 * still be one JSON value in each protocol's frame, with a tool-call id the model chose (quotes, backslashes,
 * control characters) escaped and the pages' text (any script, a surrogate pair) intact.
 */
class SearchResultPartTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOSTILE_ID = "call_\"},\"result\":[]}\n0:\"\\\u0001";
    private static final String TEXT = "Ports: \"3000\" \\ back‑slash, 日本語, 😀, tab\there";

    private final List<SearchHit> hits = List.of(hit("Local preview", TEXT), hit("Deploy", "plain"));

    @Test
    void dataStreamPartIsOneToolResult() throws Exception {
        String part = new DataStreamParts().searchResult(HOSTILE_ID, hits);
        assertTrue(part.startsWith("a:") && part.endsWith("}\n") && part.indexOf('\n') == part.length() - 1, part);
        assertResult(JSON.readTree(part.substring(2)), "result");
    }

    @Test
    void uiMessageChunkIsOneToolOutput() throws Exception {
        String chunk = new UiMessageChunks().searchResult(HOSTILE_ID, hits);
        assertTrue(chunk.startsWith("data: ") && chunk.endsWith("}\n\n") && chunk.indexOf('\n') == chunk.length() - 2, chunk);
        JsonNode output = JSON.readTree(chunk.substring("data: ".length()));
        assertEquals("tool-output-available", output.get("type").asText());
        assertResult(output, "output");
    }

    private static void assertResult(JsonNode part, String field) {
        assertEquals(HOSTILE_ID, part.get("toolCallId").asText());
        JsonNode pages = part.get(field);
        assertEquals(2, pages.size());
        assertEquals("/local preview", pages.get(0).get("path").asText());
        assertTrue(pages.get(0).get("content").asText().contains(TEXT), pages.get(0).get("content").asText());
        assertEquals("Deploy", pages.get(1).get("metadata").get("title").asText());
    }

    private static SearchHit hit(String title, String text) {
        Section section = new Section("", List.of(title), text, "");
        Page page = new Page("/" + title.toLowerCase(), title, "", List.of(), "", List.of(section), "en", "",
                List.of(), false, List.of());
        return new SearchHit(page, List.of(section), "https://docs.example.com/" + title.toLowerCase(), 1, Double.NaN);
    }
}
