package dev.docsassistant;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the service quotes is what the docs say (issue 54): a page with placeholders in code spans, a link in a
 * sentence, fenced blocks with their languages side by side ({@code fixture-docs-as-written}) comes out intact from
 * {@code /v1/search}, {@code /v1/page}, and the offline answer with the search result it streams.
 * {@link AsWrittenPromptTest} checks the language model's prompt.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-as-written.yaml",
        "assistant.search.semantic=false", ServiceTest.UNLIMITED_ADDRESS_RATE})
class AsWrittenTest extends ServiceTest {

    /** Each piece of the page's first section a reader would copy, exactly as the page writes it. */
    static final List<String> AS_WRITTEN = List.of(
            "`gadgetron token revoke <id>`",
            "`{domain}/tokens`",
            "`$GADGETRON_TOKEN`",
            "`sha256:<hex>`",
            "[the key guide](/guides/keys#hashed)",
            "```bash Terminal\nexport GADGETRON_URL=https://{domain}\ngadgetron token revoke <id>\n```",
            "```yaml values.yaml\ntoken:\n  id: <id>\n```");

    /** The page's first section, as the prose, then the two blocks, each in its own fence. */
    static final String SECTION = "Run `gadgetron token revoke <id>` with the id from `{domain}/tokens`, or set "
            + "`$GADGETRON_TOKEN`.\nKeys are stored as `sha256:<hex>`; see [the key guide](/guides/keys#hashed) and "
            + "this.\n\n```bash Terminal\nexport GADGETRON_URL=https://{domain}\ngadgetron token revoke <id>\n```\n\n"
            + "```yaml values.yaml\ntoken:\n  id: <id>\n```";

    static void assertAsWritten(String where, String text) {
        for (String piece : AS_WRITTEN) {
            assertTrue(text.contains(piece), where + " holds " + piece + " as written: " + text);
        }
    }

    @Test
    void searchResultsHoldTheSectionAsWritten() throws Exception {
        HttpResponse<String> response = send(post("/v1/search/written", ACME_KEY,
                "{\"query\": \"How do I revoke a token?\"}"));
        assertEquals(200, response.statusCode(), response.body());
        JsonNode best = JSON.readTree(response.body()).get(0);
        assertEquals("/tokens", best.get("path").asText());
        assertEquals("Revoke a token\n\n" + SECTION, best.get("content").asText());
    }

    @Test
    void thePageIsItsSourceAsWritten() throws Exception {
        HttpResponse<String> response = send(post("/v1/page/written", ACME_KEY, "{\"path\": \"/tokens\"}"));
        assertEquals(200, response.statusCode(), response.body());
        String content = JSON.readTree(response.body()).get("content").asText();
        assertAsWritten("/v1/page", content);
        assertTrue(content.contains("```\n```yaml values.yaml"), "the blocks stay two: " + content);
    }

    @Test
    void theOfflineAnswerQuotesTheCommandAndTheSearchResultItStreamsAsWritten() throws Exception {
        HttpResponse<String> response = ask("written", ACME_KEY, question("How do I revoke a token?"));
        assertEquals(200, response.statusCode(), response.body());
        List<Part> parts = parts(response.body());
        String answer = parts.stream().filter(part -> part.code().equals("0")).map(part -> part.value().asText())
                .collect(Collectors.joining());
        assertTrue(answer.startsWith("Run `gadgetron token revoke <id>` with the id from `{domain}/tokens`, or set "
                + "`$GADGETRON_TOKEN`."), answer);
        assertTrue(answer.contains(AS_WRITTEN.get(5)), "the command in its own block, with its language: " + answer);
        JsonNode result = parts.stream().filter(part -> part.code().equals("a")).findFirst().orElseThrow()
                .value().get("result");
        assertAsWritten("the search result streamed with the answer", result.get(0).get("content").asText());

        String stored = parts(ask("written", ACME_KEY, question("How are keys stored?")).body()).stream()
                .filter(part -> part.code().equals("0")).map(part -> part.value().asText())
                .collect(Collectors.joining());
        assertTrue(stored.contains("Keys are stored as `sha256:<hex>`; see [the key guide](/guides/keys#hashed)"),
                stored);
    }
}
