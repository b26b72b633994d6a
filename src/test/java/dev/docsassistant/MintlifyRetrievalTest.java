package dev.docsassistant;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static dev.docsassistant.AssistantEndpointTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The retrieval controls Mintlify honours, over real HTTP on {@code fixture-docs-mintlify} (two languages, a tagged
 * page, a page restricted to a group, a boosted page and a boosted navigation group, a {@code <Visibility>} block
 * and an OpenAPI page) and {@code fixture-docs} (two versions): the discovery search's defaults and filters, its
 * score threshold, boosts, human-only text kept from the model, and an OpenAPI page read from its spec.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-mintlify.yaml",
        "assistant.search.semantic=false", ServiceTest.UNLIMITED_ADDRESS_RATE})
class MintlifyRetrievalTest extends ServiceTest {

    private JsonNode search(String domain, String body) throws Exception {
        HttpResponse<String> response = send(post("/v1/search/" + domain, ACME_KEY, body));
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private static List<String> paths(JsonNode results) {
        List<String> paths = new ArrayList<>();
        results.forEach(result -> paths.add(result.get("path").asText()));
        return paths;
    }

    @Test
    void anOmittedLanguageSearchesEveryLanguage() throws Exception {
        List<String> every = paths(search("acme-mintlify", "{\"query\": \"Acme-Signature\"}"));
        assertTrue(every.contains("/guides/webhooks") && every.contains("/fr/guides/webhooks"), every.toString());
        assertEquals(List.of("/fr/guides/webhooks"),
                paths(search("acme-mintlify", "{\"query\": \"Acme-Signature\", \"filter\": {\"language\": \"fr\"}}")));
        assertEquals(List.of("/guides/webhooks"),
                paths(search("acme-mintlify", "{\"query\": \"Acme-Signature\", \"filter\": {\"language\": \"en\"}}")));
    }

    @Test
    void anOmittedVersionSearchesEveryVersion() throws Exception {
        String query = "{\"query\": \"install the CLI\", \"filter\": {\"language\": \"en\"%s}}";
        List<String> every = paths(search("acme-intl", query.formatted("")));
        assertTrue(every.contains("/guides/install") && every.contains("/v1/guides/install"), every.toString());
        List<String> v1 = paths(search("acme-intl", query.formatted(", \"version\": \"v1\"")));
        assertTrue(v1.contains("/v1/guides/install") && !v1.contains("/guides/install"), v1.toString());
    }

    @Test
    void aTagKeepsOnlyThePagesTaggedSo() throws Exception {
        List<String> untagged = paths(search("acme-mintlify", "{\"query\": \"widget search rollout\"}"));
        assertTrue(untagged.contains("/guides/search-rollout") && untagged.contains("/guides/search-beta"),
                untagged.toString());
        assertEquals(List.of("/guides/search-beta"), paths(search("acme-mintlify",
                "{\"query\": \"widget search rollout\", \"filter\": {\"tag\": \"beta\"}}")));
        assertEquals(List.of(), paths(search("acme-mintlify",
                "{\"query\": \"widget search rollout\", \"filter\": {\"tag\": \"deprecated\"}}")));
    }

    @Test
    void scoreThresholdIsAMinimumRelevanceNotAShareOfTheBest() throws Exception {
        JsonNode all = search("acme-mintlify", "{\"query\": \"retry zebra\", \"scoreThreshold\": 0.01}");
        for (JsonNode result : all) {
            double score = result.get("metadata").get("score").asDouble();
            assertTrue(score >= 0.01 && score < 0.9, "a page holding only the common word is no full match: " + all);
        }
        assertEquals(List.of(), paths(search("acme-mintlify", "{\"query\": \"retry zebra\", \"scoreThreshold\": 0.9}")),
                "the best result no longer always passes");
        JsonNode exact = search("acme-mintlify", "{\"query\": \"Acme-Signature\", \"scoreThreshold\": 0.9, "
                + "\"filter\": {\"language\": \"en\"}}");
        assertEquals(List.of("/guides/webhooks"), paths(exact));
        assertEquals(1.0, exact.get(0).get("metadata").get("score").asDouble());
    }

    @Test
    void aBoostedPageAndABoostedGroupRankFirst() throws Exception {
        assertEquals("/guides/retry-policy", paths(search("acme-mintlify", "{\"query\": \"retry schedule\"}")).get(0),
                "frontmatter boost: 8 lifts the weaker match");
        List<String> featured = paths(search("acme-mintlify", "{\"query\": \"rate card prices per seat\"}"));
        assertEquals("/guides/featured", featured.get(0), "the Featured group's boost: 6 " + featured);
        // Mintlify's search settings are the search bar's: the assistant's own retrieval keeps the stronger match
        List<String> retrieved = parts(ask("acme-mintlify", ACME_KEY, question("retry schedule")).body()).stream()
                .filter(part -> part.code().equals("a")).findFirst().orElseThrow()
                .value().get("result").findValuesAsText("path");
        assertEquals("/guides/retry-schedule", retrieved.get(0), "the assistant is not boosted: " + retrieved);
    }

    @Test
    void mintlifysTopLevelGroupsReadARestrictedPage() throws Exception {
        String body = "{\"path\": \"/guides/sso-admin\", \"groups\": [%s]}";
        assertProblem(send(post("/v1/page/acme-mintlify", ACME_KEY, body.formatted(""))), 404, "page_not_found");
        HttpResponse<String> allowed = send(post("/v1/page/acme-mintlify", ACME_KEY, body.formatted("\"admin\"")));
        assertEquals(200, allowed.statusCode(), allowed.body());
        assertTrue(JSON.readTree(allowed.body()).get("content").asText().contains("admin console"));
    }

    @Test
    void humanOnlyTextNeverReachesTheModel() throws Exception {
        String page = JSON.readTree(send(post("/v1/page/acme-mintlify", ACME_KEY, "{\"path\": \"/guides/tokens\"}"))
                .body()).get("content").asText();
        assertFalse(page.contains("Generate token") || page.contains("<Visibility for=\"agents\">"), page);
        assertFalse(page.contains("\n\n\n"), "the hidden block leaves no lines behind: " + page);
        assertTrue(page.contains("call `POST /v1/tokens` with your admin key"), page);
        assertTrue(page.contains("<Visibility for=\"humans\">Shown in this example as code.</Visibility>"),
                "a code fence is copied as it is: " + page);
        assertFalse(paths(search("acme-mintlify", "{\"query\": \"glowing dashboard sidebar\"}"))
                .contains("/guides/tokens"), "human-only text is not indexed");
        String answer = ask("acme-mintlify", ACME_KEY, question("How do I create an API token?")).body();
        assertTrue(answer.contains("POST /v1/tokens") && !answer.contains("glowing"), answer);
    }

    @Test
    void anOrganizationMayRequireTheThreadKeyAsMintlifyDoes() throws Exception {
        for (String[] tenant : new String[][] {{"acme-mintlify", ACME_KEY, "200"}, {"globex", GLOBEX_KEY, "404"}}) {
            HttpResponse<String> first = ask(tenant[0], tenant[1], question("How do I create an API token?"));
            String threadId = first.headers().firstValue("X-Thread-Id").orElseThrow();
            String threadKey = first.headers().firstValue("X-Thread-Key").orElseThrow();
            String followUp = conversation(threadId, null, "How do I create an API token?", "And verify webhooks?");
            assertEquals(Integer.parseInt(tenant[2]), ask(tenant[0], tenant[1], followUp).statusCode(), tenant[0]);
            assertEquals(200, ask(tenant[0], tenant[1], conversation(threadId, threadKey,
                    "How do I create an API token?", "And verify webhooks?")).statusCode(), tenant[0]);
        }
    }

    @Test
    void anOpenApiPageIsReadFromItsSpecIntoSections() throws Exception {
        JsonNode results = search("acme-mintlify", "{\"query\": \"Which parameters does creating a widget take? "
                + "dryRun Idempotency-Key\", \"filter\": {\"language\": \"en\"}}");
        assertEquals("/api/create-widget", results.get(0).get("path").asText(), results.toString());
        String page = JSON.readTree(send(post("/v1/page/acme-mintlify", ACME_KEY,
                "{\"path\": \"/api/create-widget\"}")).body()).get("content").asText();
        for (String expected : List.of("Create a widget", "`Idempotency-Key` (header, string): Makes a retried",
                "`dryRun` (query, boolean): Validates the widget", "`name` (required, string): The widget's display",
                "One of: teal, amber.", "`409`: A widget of that name exists.")) {
            assertTrue(page.contains(expected), expected + " in " + page);
        }
    }
}
