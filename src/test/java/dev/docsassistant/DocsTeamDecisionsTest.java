package dev.docsassistant;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import static dev.docsassistant.AssistantEndpointTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the docs team decided, over HTTP with the openai provider ({@link OpenAiStub}): Mintlify's visibility rules
 * keep a hidden page out of search, /v1/page, the model's context and its own searches alike (a page of
 * fixture-docs-visibility for each row of Mintlify's table), and their Assistant.md reaches the model after the
 * operator's prompts.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-visibility.yaml",
        "assistant.search.semantic=false", "assistant.model.provider=openai", "assistant.model.max-steps=2",
        ServiceTest.UNLIMITED_ADDRESS_RATE})
class DocsTeamDecisionsTest extends ModelServerTest {

    /** Each page's own word; the first four are pages search and the assistant see (VisibilityTest: why). */
    private static final List<String> SEEN = List.of("shownword", "restoredword", "searchablegroupword",
            "searchabletabword");
    private static final List<String> UNSEEN = List.of("hiddenword", "noindexword", "unsearchableword",
            "hiddengroupword", "hiddenagainword", "hiddentabword", "notinnavword", "rootinstructionsword",
            "instructionsword");

    @TestFactory
    Stream<DynamicTest> searchAndPageSeeOnlyIndexedPages() {
        return Stream.concat(SEEN.stream(), UNSEEN.stream()).map(word -> DynamicTest.dynamicTest(word, () -> {
            HttpResponse<String> search = send(post("/v1/search/visible", ACME_KEY, "{\"query\":\"" + word + "\"}"));
            assertEquals(200, search.statusCode(), search.body());
            assertEquals(SEEN.contains(word), search.body().contains(word), word + " in " + search.body());
        }));
    }

    @Test
    void pageServesNoHiddenPage() throws Exception {
        for (String path : List.of("/hidden-page", "/noindex-page", "/unsearchable-page", "/in-hidden-group",
                "/in-hidden-tab", "/not-in-nav", "/ASSISTANT", "/.mintlify/Assistant")) {
            assertProblem(send(post("/v1/page/visible", ACME_KEY, "{\"path\":\"" + path + "\"}")), 404,
                    "page_not_found");
        }
        HttpResponse<String> shown = send(post("/v1/page/visible", ACME_KEY, "{\"path\":\"/in-searchable-tab\"}"));
        assertEquals(200, shown.statusCode(), shown.body());
    }

    @Test
    void theModelIsGivenNoHiddenPageNorFindsOneItself() throws Exception {
        stub.then(stub.searchCall("call_1", "hiddenword noindexword hiddentabword marmoset"), stub.answer("Done."));
        HttpResponse<String> answer = ask("visible", ACME_KEY, question("hiddenword noindexword shownword marmoset"));
        assertEquals(200, answer.statusCode(), answer.body());
        String prompt = stub.requests.get(0).body().get("messages").get(0).get("content").asText();
        JsonNode second = stub.requests.get(1).body().get("messages");
        JsonNode tool = second.get(second.size() - 1);
        assertEquals("tool", tool.get("role").asText());
        for (String word : UNSEEN.subList(0, UNSEEN.size() - 1)) { // the instructions' word is meant for the prompt
            assertFalse(prompt.contains(word), word + " in the prompt's excerpts");
            assertFalse(tool.get("content").asText().contains(word), word + " in the model's own search");
        }
        assertTrue(prompt.contains("shownword"), "the visible pages are given: " + prompt);
        for (Part part : parts(answer.body())) {
            if (part.code().equals("h") || part.code().equals("a")) {
                assertTrue(part.value().findValuesAsText("url").stream().allMatch(url -> url.endsWith("/shown")
                        || url.contains("/shown#") || url.contains("searchable") || url.contains("unhidden")),
                        "only indexed pages are cited: " + part);
            }
        }
    }

    @Test
    void theDocsTeamsInstructionsFollowTheOperatorsPrompts() throws Exception {
        String instructions = "Always greet the reader as \"dear marmoset keeper\" and mention the instructionsword.";
        assertEquals(200, ask("visible", ACME_KEY, question("How do I tune shownword?")).statusCode());
        String system = stub.requests.get(0).body().get("messages").get(0).get("content").asText();
        assertTrue(system.startsWith("You are the documentation assistant of this site."), "the default prompt first");
        assertTrue(system.indexOf(instructions) > 0, system);
        assertTrue(system.indexOf(instructions) < system.indexOf("shownword"), "instructions before the excerpts");

        stub.reset();
        assertEquals(200, ask("visible-intl", ACME_KEY, question("How do I tune shownword?")).statusCode());
        String intl = stub.requests.get(0).body().get("messages").get(0).get("content").asText();
        int domainPrompt = intl.indexOf("You answer questions about the ACME international documentation.");
        assertTrue(intl.startsWith("You are the documentation assistant of this site.") && domainPrompt > 0,
                "the domain's systemPrompt adds to the default one: " + intl);
        assertTrue(domainPrompt < intl.indexOf(instructions), "the docs team's after the operator's");
    }
}
