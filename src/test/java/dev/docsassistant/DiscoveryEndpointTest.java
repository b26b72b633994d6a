package dev.docsassistant;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static dev.docsassistant.AssistantEndpointTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mintlify's discovery API: POST /v1/search/{domain} and POST /v1/page/{domain}, over real HTTP. */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        ServiceTest.UNLIMITED_ADDRESS_RATE})
class DiscoveryEndpointTest extends ServiceTest {

    private HttpResponse<String> search(String domain, String key, String body) throws Exception {
        return send(post("/v1/search/" + domain, key, body));
    }

    private HttpResponse<String> page(String domain, String key, String body) throws Exception {
        return send(post("/v1/page/" + domain, key, body));
    }

    @Test
    void searchReturnsPagesBestFirstWithMetadata() throws Exception {
        HttpResponse<String> response = search("acme", ACME_KEY,
                "{\"query\": \"How do I raise the rate limit per organization?\", \"pageSize\": 3}");
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
        new HttpHeadersAssert(response).absent("Authorization");
        assertTrue(response.headers().firstValue("X-RateLimit-Remaining").isPresent());
        JsonNode results = JSON.readTree(response.body());
        assertEquals(3, results.size());
        JsonNode best = results.get(0);
        assertEquals("/guides/rate-limits", best.get("path").asText());
        assertFalse(best.get("content").asText().isBlank());
        assertEquals("Rate limits", best.get("metadata").get("title").asText());
        assertTrue(best.get("metadata").get("url").asText().startsWith("https://acme.example.com/docs"));
        assertEquals(3, results.findValues("path").stream().map(JsonNode::asText).distinct().count(),
                "one result per page");
    }

    @Test
    void searchDefaultsToTenResultsAndHonoursTheThreshold() throws Exception {
        JsonNode all = JSON.readTree(search("acme", ACME_KEY, "{\"query\": \"the\"}").body());
        assertTrue(all.size() <= 10);
        JsonNode results = JSON.readTree(search("acme", ACME_KEY,
                "{\"query\": \"thread key continue conversation\", \"scoreThreshold\": 1}").body());
        assertFalse(results.isEmpty());
        results.forEach(result -> assertEquals(1.0, result.get("metadata").get("score").asDouble(),
                "a minimum relevance: only pages holding every word of the query score 1"));
        assertEquals(0, JSON.readTree(search("acme", ACME_KEY,
                "{\"query\": \"thread key continue zzqxwibble\", \"scoreThreshold\": 1}").body()).size(),
                "not even the best result passes when no page holds every word");
    }

    @Test
    void searchFiltersByVersionAndLanguage() throws Exception {
        JsonNode v1 = JSON.readTree(search("acme-intl", ACME_KEY,
                "{\"query\": \"install the CLI\", \"filter\": {\"version\": \"v1\"}}").body());
        assertEquals("/v1/guides/install", v1.get(0).get("path").asText());
        assertEquals("v1", v1.get(0).get("metadata").get("version").asText());
        assertEquals(1, v1.size());

        JsonNode fr = JSON.readTree(search("acme-intl", ACME_KEY,
                "{\"query\": \"renommer un fichier\", \"filter\": {\"language\": \"fr\"}}").body());
        assertEquals("/fr/guides/redirects", fr.get(0).get("path").asText());
        assertEquals("fr", fr.get(0).get("metadata").get("language").asText());
        assertEquals("Guides", fr.get(0).get("metadata").get("breadcrumb").get(0).asText());
    }

    private List<String> searchedBy(ObjectNode body) throws Exception {
        return searchedBy("acme-intl", body);
    }

    /** The message endpoint's search step: the paths in its {@code a:} tool result. */
    private List<String> searchedBy(String domain, ObjectNode body) throws Exception {
        HttpResponse<String> response = ask(domain, ACME_KEY, body.toString());
        assertEquals(200, response.statusCode(), response.body());
        return parts(response.body()).stream().filter(p -> p.code().equals("a")).findFirst().orElseThrow()
                .value().get("result").findValuesAsText("path");
    }

    @Test
    void theAssistantSearchesWithTheRequestsFilterPageContextAndEarlierQuestions() throws Exception {
        ObjectNode french = (ObjectNode) JSON.readTree(question("renommer un fichier"));
        french.putObject("filter").put("language", "fr");
        assertEquals(List.of("/fr/guides/redirects"), searchedBy(french));

        ObjectNode onV1 = (ObjectNode) JSON.readTree(question("install the CLI"));
        onV1.put("currentPath", "/v1/guides/install");
        assertEquals(List.of("/v1/guides/install"), searchedBy(onV1), "the reader's page picks the version");

        ObjectNode withContext = (ObjectNode) JSON.readTree(question("what does this do?"));
        withContext.putArray("context").addObject().put("type", "code")
                .put("value", "{\"redirects\": [{\"source\": \"/old/:slug*\"}]}");
        assertEquals("/guides/redirects", searchedBy(withContext).get(0), "attached code joins the query");

        ObjectNode followUp = (ObjectNode) JSON.readTree(conversation(null, null, "How do I install the CLI?",
                "and for v1?"));
        followUp.putObject("filter").put("version", "v1");
        assertEquals(List.of("/v1/guides/install"), searchedBy(followUp), "a short follow-up borrows the question");
    }

    /**
     * {@code fixture-docs-groups}: {@code /admin/signing-keys} is for the {@code admin} group only, so search, page
     * and the message endpoint's search see it only when {@code filter.groups} names that group.
     */
    @Test
    void aRestrictedPageIsFoundAndReadOnlyWithOneOfItsGroups() throws Exception {
        String query = "{\"query\": \"rotate the SAML signing keys\"";
        List<String> publicOnly = JSON.readTree(search("acme-groups", ACME_KEY, query + "}").body())
                .findValuesAsText("path");
        assertTrue(publicOnly.contains("/sso") && !publicOnly.contains("/admin/signing-keys"), publicOnly.toString());
        assertEquals("/admin/signing-keys", JSON.readTree(search("acme-groups", ACME_KEY,
                query + ", \"filter\": {\"groups\": [\"support\", \"admin\"]}}").body()).get(0).get("path").asText());

        String hidden = "{\"path\": \"/admin/signing-keys\"%s}";
        JsonNode refused = assertProblem(page("acme-groups", ACME_KEY, hidden.formatted("")), 404, "page_not_found");
        JsonNode missing = assertProblem(page("acme-groups", ACME_KEY, "{\"path\": \"/admin/nothing-here\"}"), 404,
                "page_not_found");
        ((ObjectNode) refused).remove("requestId");
        ((ObjectNode) missing).remove("requestId");
        assertEquals(missing.toString().replace("/admin/nothing-here", "/admin/signing-keys"), refused.toString(),
                "a page the reader may not see is answered like one that does not exist");
        assertProblem(page("acme-groups", ACME_KEY, hidden.formatted(", \"filter\": {\"groups\": [\"partners\"]}")),
                404, "page_not_found");
        HttpResponse<String> allowed = page("acme-groups", ACME_KEY,
                hidden.formatted(", \"filter\": {\"groups\": [\"admin\"]}"));
        assertEquals(200, allowed.statusCode(), allowed.body());
        assertTrue(JSON.readTree(allowed.body()).get("content").asText().startsWith("# Rotate the signing keys"));

        ObjectNode asked = (ObjectNode) JSON.readTree(question("How do I rotate the SAML signing keys?"));
        assertFalse(searchedBy("acme-groups", asked).contains("/admin/signing-keys"));
        asked.putObject("filter").putArray("groups").add("admin");
        assertEquals("/admin/signing-keys", searchedBy("acme-groups", asked).get(0));
    }

    /** Mintlify's page request carries the reader's {@code groups} at the top level, not in a filter. */
    @Test
    void aRestrictedPageIsReadWithMintlifysTopLevelGroups() throws Exception {
        HttpResponse<String> allowed = page("acme-groups", ACME_KEY,
                "{\"path\": \"/admin/signing-keys\", \"groups\": [\"support\", \"admin\"]}");
        assertEquals(200, allowed.statusCode(), allowed.body());
        assertTrue(JSON.readTree(allowed.body()).get("content").asText().startsWith("# Rotate the signing keys"));
        assertProblem(page("acme-groups", ACME_KEY, "{\"path\": \"/admin/signing-keys\", \"groups\": [\"partners\"]}"),
                404, "page_not_found");
        assertProblem(page("acme-groups", ACME_KEY, "{\"path\": \"/admin/signing-keys\", \"groups\": []}"),
                404, "page_not_found");
        JsonNode problem = assertProblem(page("acme-groups", ACME_KEY,
                "{\"path\": \"/sso\", \"groups\": [\"admin\", \"\"]}"), 400, "invalid_request");
        assertEquals("groups[1]", problem.get("field").asText());
    }

    @Test
    void groupsAreAShortListOfNames() throws Exception {
        ObjectNode body = JSON.createObjectNode().put("query", "x").put("path", "/sso");
        ArrayNode groups = body.putObject("filter").putArray("groups");
        for (int i = 0; i <= 50; i++) {
            groups.add("group-" + i);
        }
        for (String endpoint : List.of("search", "page")) {
            JsonNode problem = assertProblem(send(post("/v1/" + endpoint + "/acme", ACME_KEY, body.toString())), 400,
                    "invalid_request");
            assertEquals("filter.groups", problem.get("field").asText());
            assertTrue(problem.get("detail").asText().contains("at most 50"), problem.toString());
        }
        groups.removeAll().add("admin").add("x".repeat(201));
        JsonNode problem = assertProblem(send(post("/v1/search/acme", ACME_KEY, body.toString())), 400,
                "invalid_request");
        assertEquals("filter.groups[1]", problem.get("field").asText());
    }

    @Test
    void pageReturnsTheMarkdownOfAPage() throws Exception {
        HttpResponse<String> response = page("acme-intl", ACME_KEY, "{\"path\": \"guides/redirects.mdx\"}");
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals("/guides/redirects", body.get("path").asText());
        String content = body.get("content").asText();
        assertTrue(content.startsWith("# Redirects\n"), content);
        assertTrue(content.contains("## Wildcards") && content.contains("\"source\": \"/old/:slug*\""), content);
        assertFalse(content.contains("keywords:"), "no frontmatter");
    }

    @Test
    void unknownPageIs404WithAMessage() throws Exception {
        JsonNode problem = assertProblem(page("acme", ACME_KEY, "{\"path\": \"/no/such/page\"}"), 404,
                "page_not_found");
        assertTrue(problem.get("message").asText().contains("/no/such/page"));
    }

    @ParameterizedTest(name = "{0} {1} -> 400 {2}")
    @CsvSource(delimiter = '|', value = {
            "search | {}                                         | query",
            "search | {\"query\": \"  \"}                        | query",
            "search | {\"query\": 42}                            | query",
            "search | {\"query\": \"x\", \"pageSize\": 0}        | pageSize",
            "search | {\"query\": \"x\", \"pageSize\": 51}       | pageSize",
            "search | {\"query\": \"x\", \"scoreThreshold\": 1.5} | scoreThreshold",
            "search | {\"query\": \"x\", \"filter\": \"v1\"}     | filter",
            "search | {\"query\": \"x\", \"filter\": {\"groups\": \"admin\"}} | filter.groups",
            "search | {\"query\": \"x\", \"filter\": {\"groups\": [\" \"]}}    | filter.groups[0]",
            "search | {\"query\": \"x\", \"filter\": {\"groups\": [\"a\", null]}} | filter.groups[1]",
            "page   | {\"path\": \"/sso\", \"filter\": {\"groups\": [1]}}  | filter.groups[0]",
            "search | [1, 2]                                     | ",
            "page   | {}                                         | path",
            "page   | {\"path\": [\"/a\"]}                       | path",
    })
    void badBodiesAre400NamingTheField(String endpoint, String body, String field) throws Exception {
        JsonNode problem = assertProblem(send(post("/v1/" + endpoint + "/acme", ACME_KEY, body)), 400,
                "invalid_request");
        if (field != null) {
            assertEquals(field, problem.get("field").asText(), problem.toString());
        }
    }

    @Test
    void sameKeyAndDomainRulesAsTheMessageEndpoint() throws Exception {
        assertProblem(search("acme", null, "{\"query\": \"x\"}"), 401, "unauthorized");
        assertProblem(search("acme", GLOBEX_KEY, "{\"query\": \"x\"}"), 403, "forbidden");
        assertProblem(page("nowhere", ACME_KEY, "{\"path\": \"/\"}"), 404, "domain_not_found");
        assertProblem(send(post("/v1/search/acme", ACME_KEY, "query=x").setHeader("Content-Type", "text/plain")),
                415, "unsupported_media_type");
    }

    /**
     * Mintlify's documented base, {@code https://api.mintlify.com/discovery}: each public endpoint answers under it as
     * under the plain path (the same body, or the same problem), preflights included; the admin endpoints do not.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "/v1/search/acme                 | {\"query\": \"change the port\"}",
            "/v1/page/acme                   | {\"path\": \"/configuration/properties\"}",
            "/v1/page/acme                   | {\"path\": \"/no/such/page\"}",
            "/v1/search/acme                 | {\"query\": \"x\", \"pageSize\": 0}",
            "/v1/assistant/acme/feedback     | {\"fp\": \"f\"}",
            "/v2/assistant/acme/message      | {\"fp\": \"f\", \"messages\": []}",
            "/v1/assistant/acme/message      | {\"fp\": \"f\"}",
    })
    void theDiscoveryPrefixAnswersAsThePlainPath(String path, String body) throws Exception {
        HttpResponse<String> plain = send(post(path, ACME_KEY, body));
        HttpResponse<String> prefixed = send(post("/discovery" + path, ACME_KEY, body));
        assertEquals(plain.statusCode(), prefixed.statusCode(), prefixed.body());
        assertEquals(plain.headers().firstValue("Content-Type"), prefixed.headers().firstValue("Content-Type"));
        if (plain.statusCode() == 200) {
            assertEquals(JSON.readTree(plain.body()), JSON.readTree(prefixed.body()));
        } else {
            JsonNode problem = JSON.readTree(prefixed.body());
            assertEquals(JSON.readTree(plain.body()).get("code"), problem.get("code"));
            assertEquals(JSON.readTree(plain.body()).get("field"), problem.get("field"));
        }
        assertProblem(send(post("/discovery" + path, null, body)), 401, "unauthorized");
        allowedPreflight("/discovery" + path);
    }

    @Test
    void theAdminEndpointsAreNotUnderTheDiscoveryPrefix() throws Exception {
        assertProblem(send(HttpRequest.newBuilder(uri("/discovery/v1/admin/acme/threads")).GET()), 404, "not_found");
        assertProblem(send(post("/discovery/v9/search/acme", ACME_KEY, "{}")), 404, "not_found");
    }
}
