package dev.docsassistant;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the service serves AI agents under {@code /sites/{domain}/} (agents.yaml), against the running service:
 * llms.txt and llms-full.txt by each row of Mintlify's hidden-pages table (fixture-docs-visibility) with every link
 * resolving to Markdown, each page's Markdown as written (fixture-docs-agents), and the MCP server driven by the
 * official MCP TypeScript SDK's client (src/test/node/mcp-client.mjs), with no key.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-agents.yaml",
        "assistant.search.semantic=false", "assistant.records.data-dir=target/agents-test-records",
        ServiceTest.UNLIMITED_ADDRESS_RATE})
class AgentsTest extends ServiceTest {

    private static final String ADMIN_KEY = "mint_adm_acme_secret_0123456789";
    /** The table's rows that llms.txt lists: the navigation's pages, searchable: false ones and searchable groups'. */
    private static final Set<String> LISTED = Set.of("/shown", "/unsearchable-page", "/unhidden-in-hidden-group",
            "/in-searchable-group", "/in-searchable-tab");
    /** The rows it leaves out: hidden: true, noindex: true, not in the navigation, under a hidden group or tab. */
    private static final Set<String> LEFT_OUT = Set.of("/hidden-page", "/noindex-page", "/not-in-nav",
            "/in-hidden-group", "/in-hidden-tab", "/hidden-again");
    private static final Pattern LINK = Pattern.compile("^- \\[([^]]+)]\\(([^)]+)\\)(?:: (.*))?$", Pattern.MULTILINE);

    @Test
    void llmsTxtListsTheVisibilityTablesLlmsTxtColumnAndEveryLinkIsMarkdown() throws Exception {
        HttpResponse<String> llms = get("/sites/visibility/llms.txt", null);
        assertEquals(200, llms.statusCode(), llms.body());
        assertTrue(llms.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
        assertTrue(llms.body().startsWith("# Visibility fixture"), llms.body());
        assertEquals("/sites/visibility/llms.txt", llms.headers().firstValue("X-Llms-Txt").orElseThrow());

        Set<String> linked = new TreeSet<>();
        Matcher link = LINK.matcher(llms.body());
        while (link.find()) {
            String url = link.group(2);
            assertTrue(url.startsWith("/sites/visibility/") && url.endsWith(".md"), url);
            linked.add(url.substring("/sites/visibility".length(), url.length() - ".md".length()));
            HttpResponse<String> page = get(url, null);
            assertEquals(200, page.statusCode(), url);
            assertEquals("text/markdown; charset=utf-8", page.headers().firstValue("Content-Type").orElseThrow());
            assertTrue(page.body().startsWith("# " + link.group(1) + "\n"), page.body());
        }
        assertEquals(new TreeSet<>(LISTED), linked, llms.body());
        assertTrue(llms.body().contains("## Shown\n") && llms.body().contains("## Help center\n"), llms.body());

        String full = get("/sites/visibility/llms-full.txt", null).body();
        for (String path : LISTED) {
            assertTrue(full.contains("Source: /sites/visibility" + path + ".md\n"), path + " in llms-full.txt");
        }
        for (String path : LEFT_OUT) {
            String word = get("/sites/visibility" + path + ".md", null).statusCode() + " " + path;
            assertEquals("404 " + path, word, "a page llms.txt leaves out has no Markdown either");
            assertFalse(full.contains(path + ".md"), path + " is not in llms-full.txt");
        }
        assertFalse(full.contains("hiddenword") || full.contains("noindexword") || full.contains("notinnavword"));
    }

    @Test
    void aPageIsItsMarkdownAsWrittenByExtensionOrAcceptHeader() throws Exception {
        HttpResponse<String> md = get("/sites/marmoset/quickstart.md", null);
        assertEquals(200, md.statusCode(), md.body());
        String page = md.body();
        assertTrue(page.startsWith("# Quickstart\n\n> Feed your first marmoset in five minutes.\n\n"), page);
        assertTrue(page.contains("Install the CLI, then run `marmoset feed --token <token>`:"), page);
        assertTrue(page.contains("```bash Install the CLI\ncurl -fsSL https://marmoset.example/install.sh | sh\n"
                + "marmoset feed --token <token> --count 3\n```"), page);
        assertTrue(page.contains("| Flag | Meaning |\n| --- | --- |\n| `--token` | Your feeding token, `<token>` |"),
                page);
        assertTrue(page.contains("You need a **feeding token** first: see [Tokens](/api/tokens)."), page);
        assertTrue(page.contains("Feeding schedule."), "a component's title is kept: " + page);
        assertFalse(page.contains("<Note>") || page.contains("<Card") || page.contains("import ")
                || page.contains("author's note"), page);
        assertTrue(page.contains("Agents feed marmosets with the CLI only.") && !page.contains("green button")
                && !page.contains("Visibility"), "as agents read it, Mintlify's <Visibility>: " + page);
        assertEquals("<https://docs.marmoset.example/llms.txt>; rel=\"llms-txt\", "
                + "<https://docs.marmoset.example/llms-full.txt>; rel=\"llms-full-txt\"",
                md.headers().firstValue("Link").orElseThrow());
        assertEquals("https://docs.marmoset.example/llms.txt", md.headers().firstValue("X-Llms-Txt").orElseThrow());

        HttpResponse<String> accepted = send(HttpRequest.newBuilder(uri("/sites/marmoset/quickstart"))
                .header("Accept", "text/markdown"));
        assertEquals(200, accepted.statusCode());
        assertEquals(page, accepted.body());
        assertEquals(200, get("/sites/marmoset/index.md", null).statusCode(), "the root page is index.md");
        assertEquals(404, get("/sites/marmoset/../../v1/x.md", null).statusCode());
        assertEquals(404, get("/sites/nowhere/quickstart.md", null).statusCode());
    }

    @Test
    void llmsTxtFollowsTheNavigationWithTheSitesNameSummaryAndFirstParagraphs() throws Exception {
        String llms = get("/sites/marmoset/llms.txt", null).body();
        assertEquals("""
                # Marmoset Cloud

                > Run marmosets in the cloud: the fixture of AgentsTest (llms.txt, Markdown pages, the MCP server).

                ## Get started

                - [Introduction](https://docs.marmoset.example/index.md): What Marmoset Cloud is.
                - [Quickstart](https://docs.marmoset.example/quickstart.md): Feed your first marmoset in five minutes.

                ## API

                - [Tokens](https://docs.marmoset.example/api/tokens.md): Create and rotate feeding tokens. A longer \
                paragraph follows.
                """, llms);
        Matcher link = LINK.matcher(llms);
        while (link.find()) { // published at the site: here under /sites/marmoset
            String path = link.group(2).replace("https://docs.marmoset.example", "/sites/marmoset");
            assertEquals(200, get(path, null).statusCode(), path);
        }
        String full = get("/sites/marmoset/llms-full.txt", null).body();
        assertTrue(full.startsWith("# Introduction\nSource: https://docs.marmoset.example\n\n> What Marmoset Cloud is."),
                full);
        assertTrue(full.indexOf("# Quickstart\nSource: https://docs.marmoset.example/quickstart\n") > 0, full);
        assertTrue(full.contains("This second paragraph is not in llms.txt."), "llms-full.txt has it all");
    }

    @Test
    void theMcpServerSearchesFetchesAndTakesFeedbackWithNoKey() throws Exception {
        ArrayNode calls = JSON.createArrayNode();
        call(calls, "search").put("query", "How do I change the port?");
        JsonNode first = mcp("acme", calls);
        List<String> tools = first.get("tools").findValuesAsText("name");
        assertEquals(List.of("search", "fetch", "submit_feedback"), tools);
        assertTrue(Set.of("2025-11-25", "2025-06-18").contains(first.get("protocolVersion").asText()));
        JsonNode results = first.get("results").get(0).get("structuredContent").get("results");
        assertFalse(results.isEmpty(), first.toString());
        JsonNode best = results.get(0);
        assertEquals("/configuration/properties", best.get("id").asText(), results.toString());
        assertEquals("https://acme.example.com/docs/configuration/properties", best.get("url").asText());
        assertFalse(best.get("snippet").asText().isBlank());
        assertEquals(results, JSON.readTree(first.get("results").get(0).get("content").get(0).get("text").asText())
                .get("results"), "the same results as text, for clients that read text only");

        String feedback = "The port example is wrong " + System.nanoTime();
        ArrayNode then = JSON.createArrayNode();
        call(then, "fetch").put("id", best.get("id").asText());
        call(then, "submit_feedback").put("path", "/configuration/properties").put("feedback", feedback);
        call(then, "submit_feedback").put("path", "/no/such/page").put("feedback", "x");
        JsonNode second = mcp("acme", then);
        JsonNode page = second.get("results").get(0).get("structuredContent");
        assertEquals("/configuration/properties", page.get("id").asText());
        assertTrue(page.get("text").asText().startsWith("# " + page.get("title").asText() + "\n"), page.toString());
        assertTrue(page.get("text").asText().contains("camel.server.port"), "the page's Markdown");
        assertFalse(second.get("results").get(1).path("isError").asBoolean());
        assertTrue(second.get("results").get(2).get("isError").asBoolean(), "feedback on no page is refused");

        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        JsonNode row = null;
        while (row == null && System.nanoTime() < deadline) {
            HttpResponse<String> rows = get("/v1/analytics/acme/feedback?source=agent", ADMIN_KEY);
            assertEquals(200, rows.statusCode(), rows.body());
            for (JsonNode one : JSON.readTree(rows.body()).get("feedback")) {
                if (one.toString().contains(feedback)) {
                    row = one;
                }
            }
            Thread.sleep(100);
        }
        assertTrue(row != null, "the agent's feedback is in the analytics");
        assertEquals("agent", row.get("source").asText(), row.toString());
        assertEquals("/configuration/properties", row.get("path").asText(), row.toString());
    }

    /** Search sees what the assistant's context may use: never a hidden, noindex, off-navigation or unsearchable page. */
    @Test
    void theMcpServerNeverReturnsAPageTheAssistantsContextLeavesOut() throws Exception {
        ArrayNode calls = JSON.createArrayNode();
        List<String> words = List.of("hiddenword", "noindexword", "notinnavword", "hiddengroupword", "hiddentabword",
                "hiddenagainword", "unsearchableword", "shownword");
        words.forEach(word -> call(calls, "search").put("query", word + " marmoset configuration"));
        for (String path : List.of("/hidden-page", "/noindex-page", "/not-in-nav", "/in-hidden-group",
                "/in-hidden-tab", "/hidden-again", "/unsearchable-page")) {
            call(calls, "fetch").put("id", path);
        }
        JsonNode run = mcp("visibility", calls);
        Set<String> found = new TreeSet<>();
        for (int i = 0; i < words.size(); i++) {
            run.get("results").get(i).get("structuredContent").get("results")
                    .forEach(result -> found.add(result.get("id").asText()));
        }
        assertEquals(new TreeSet<>(Set.of("/shown", "/unhidden-in-hidden-group", "/in-searchable-group",
                "/in-searchable-tab")), found, "only the pages search may see");
        for (int i = words.size(); i < run.get("results").size(); i++) {
            assertTrue(run.get("results").get(i).get("isError").asBoolean(), run.get("results").get(i).toString());
        }
    }

    /** A page restricted to user groups is for readers entitled to it: with no key, neither listed nor found. */
    @Test
    void pagesRestrictedToUserGroupsAreNeverServed() throws Exception {
        String llms = get("/sites/groups/llms.txt", null).body();
        assertTrue(llms.contains("/sites/groups/sso.md"), llms);
        assertFalse(llms.contains("signing-keys") || llms.contains("pricing"), llms);
        assertEquals(404, get("/sites/groups/admin/signing-keys.md", null).statusCode());
        assertFalse(get("/sites/groups/llms-full.txt", null).body().contains("ninety days"));

        ArrayNode calls = JSON.createArrayNode();
        call(calls, "search").put("query", "rotate the SAML signing keys certificate");
        call(calls, "search").put("query", "reseller discount on annual plans");
        call(calls, "fetch").put("id", "/admin/signing-keys");
        JsonNode run = mcp("groups", calls);
        for (int i = 0; i < 2; i++) {
            run.get("results").get(i).get("structuredContent").get("results").forEach(result ->
                    assertEquals("/sso", result.get("id").asText(), "only the public page"));
        }
        assertTrue(run.get("results").get(2).get("isError").asBoolean());
    }

    @Test
    void aDomainWhoseMcpServerIsSwitchedOffRefuses() throws Exception {
        JsonNode run = mcp("quiet", JSON.createArrayNode());
        assertTrue(run.get("connectError").asText().contains("403"), run.toString());
        assertEquals(403, get("/sites/quiet/.well-known/mcp", null).statusCode());
        assertEquals(200, get("/sites/quiet/llms.txt", null).statusCode(), "its llms.txt is still served");

        HttpResponse<String> discovery = get("/sites/marmoset/.well-known/mcp", null);
        assertEquals(200, discovery.statusCode());
        JsonNode document = JSON.readTree(discovery.body());
        assertEquals("https://docs.marmoset.example/mcp", document.get("url").asText());
        assertEquals("none", document.get("servers").get(0).get("authentication").asText());
    }

    /** No key, but the organization's quota: its llms.txt and its MCP server count against it like the widget. */
    @Test
    void theKeylessEndpointsCountAgainstTheOrganizationsQuota() throws Exception {
        HttpResponse<String> llms = get("/sites/tiny/llms.txt", null);
        assertEquals(200, llms.statusCode());
        assertEquals("2", llms.headers().firstValue("X-RateLimit-Limit").orElseThrow());
        assertEquals(200, send(mcpPost("tiny", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).statusCode());
        HttpResponse<String> refused = send(mcpPost("tiny", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"));
        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals("org", refused.headers().firstValue("X-RateLimit-Scope").orElseThrow());
        assertEquals(429, get("/sites/tiny/quickstart.md", null).statusCode());

        String metrics = send(HttpRequest.newBuilder(managementUri("/observe/metrics"))).body();
        for (String route : List.of("site-llms-txt", "site-mcp", "site-page")) {
            assertTrue(metrics.lines().anyMatch(line -> line.startsWith("assistant_requests_total{")
                    && line.contains("route=\"" + route + "\"") && line.contains("domain=\"tiny\"")),
                    route + " is counted like every public endpoint");
        }
    }

    /** A hostile client: a batch, a bad protocol version, a query over the limit, a GET: clear refusals, no 5xx. */
    @Test
    void badMessagesAreRefusedClearly() throws Exception {
        HttpResponse<String> batch = send(mcpPost("visibility", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]"));
        assertEquals(200, batch.statusCode(), batch.body());
        assertEquals(-32600, JSON.readTree(batch.body()).get("error").get("code").asInt(), batch.body());

        HttpResponse<String> version = send(mcpPost("visibility", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                .header("MCP-Protocol-Version", "1999-01-01"));
        assertEquals(400, version.statusCode(), version.body());

        String longQuery = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                + "\"arguments\":{\"query\":\"" + "a".repeat(3000) + "\"}}}";
        JsonNode tooLong = JSON.readTree(send(mcpPost("visibility", longQuery)).body());
        assertTrue(tooLong.get("result").get("isError").asBoolean(), tooLong.toString());

        String tooMany = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"search\","
                + "\"arguments\":{\"query\":\"marmoset\",\"limit\":100000}}}";
        JsonNode limited = JSON.readTree(send(mcpPost("visibility", tooMany)).body());
        assertTrue(limited.get("result").get("isError").asBoolean(), limited.toString());
        assertTrue(limited.toString().contains("limit must be an integer from 1 to 50"), limited.toString());

        String unknown = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"rm\"}}";
        assertEquals(-32602, JSON.readTree(send(mcpPost("visibility", unknown)).body()).get("error").get("code").asInt());

        HttpResponse<String> notification = send(mcpPost("visibility",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        assertEquals(202, notification.statusCode());
        assertEquals(405, get("/sites/visibility/mcp", null).statusCode());
    }

    private HttpRequest.Builder mcpPost(String domain, String body) {
        return post("/sites/" + domain + "/mcp", null, body).header("Accept", "application/json, text/event-stream");
    }

    /** Adds a call of the tool to {@code calls}; returns its arguments, to fill in. */
    private static ObjectNode call(ArrayNode calls, String tool) {
        return calls.addObject().put("name", tool).putObject("arguments");
    }

    private HttpResponse<String> get(String path, String key) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri("").toString() + path))
                .timeout(Duration.ofSeconds(20));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return send(request);
    }

    /** Runs the MCP SDK's client against the domain's server with these calls ({name, arguments}). */
    private JsonNode mcp(String domain, ArrayNode calls) throws Exception {
        Path nodeDir = Path.of(System.getProperty("node.dir", "src/test/node"));
        assertTrue(Files.isDirectory(nodeDir.resolve("node_modules/@modelcontextprotocol/sdk")),
                "run 'npm ci' in " + nodeDir + " (the Maven build does it in process-test-resources)");
        Process node = new ProcessBuilder("node", "mcp-client.mjs", uri("/sites/" + domain + "/mcp").toString(),
                JSON.writeValueAsString(calls))
                .directory(nodeDir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String stdout = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "the SDK client finished");
        assertEquals(0, node.exitValue(), "stdout: " + stdout);
        return JSON.readTree(stdout);
    }
}
