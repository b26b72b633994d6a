package dev.docsassistant;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Live responses checked against Mintlify's own OpenAPI documents (../shared/mintlify-specs, not part of this
 * project; the class is skipped without them), as a client generated from them reads them: the discovery API, the
 * analytics API and the update endpoints, each response against the schema of its operation and status in
 * Mintlify's document. Every response is also checked against this project's openapi.yaml, as all tests' traffic is.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@EnabledIf(value = "specsPresent", disabledReason = "../shared/mintlify-specs not found: Mintlify contract tests skipped")
class MintlifyContractTest {

    static final Path SPECS = Path.of(System.getProperty("shared.specs", "../shared/mintlify-specs"));
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dataDir;
    private final HttpClient http = AnalyticsTest.client();
    private ServiceInstance service;

    static boolean specsPresent() {
        return Files.isRegularFile(SPECS.resolve("analytics.openapi.json"));
    }

    @BeforeAll
    void start() throws Exception {
        service = ServiceInstance.start(AnalyticsTest.properties(dataDir), http);
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void theDiscoveryApiAnswersAsMintlifysDocumentSays() throws Exception {
        Spec discovery = Spec.read("discovery-openapi.json");
        discovery.assertMatches("/v1/search/{domain}", "post", send("POST", "/v1/search/acme", ServiceTest.ACME_KEY,
                "{\"query\":\"change the port\",\"pageSize\":3}"));
        discovery.assertMatches("/v1/page/{domain}", "post", send("POST", "/v1/page/acme", ServiceTest.ACME_KEY,
                "{\"path\":\"/quickstart\",\"groups\":[]}"));
        discovery.assertMatches("/v1/page/{domain}", "post", send("POST", "/v1/page/acme", ServiceTest.ACME_KEY,
                "{\"path\":\"/no/such/page\"}"));
    }

    @Test
    void theAnalyticsApiAnswersAsMintlifysDocumentSays() throws Exception {
        Spec analytics = Spec.read("analytics.openapi.json");
        HttpResponse<String> answer = ask("fp-contract", "How do I change the port?");
        String thread = answer.headers().firstValue("X-Thread-Id").orElseThrow();
        assertEquals(200, send("POST", "/v1/assistant/acme/feedback", ServiceTest.ACME_KEY,
                FeedbackTest.body("fp-contract", thread, FeedbackTest.messageId(answer), "up").toString()).statusCode());
        assertEquals(200, send("POST", "/v1/assistant/acme/feedback/page", ServiceTest.ACME_KEY,
                "{\"fp\":\"fp-contract\",\"path\":\"/quickstart\",\"helpful\":false}").statusCode());
        assertEquals(200, send("POST", "/v1/assistant/acme/feedback/code", ServiceTest.ACME_KEY,
                "{\"fp\":\"fp-contract\",\"path\":\"/quickstart\",\"code\":\"npm i\"}").statusCode());
        assertEquals(200, send("POST", "/v1/search/acme", ServiceTest.ACME_KEY, "{\"query\":\"port\"}").statusCode());
        AnalyticsTest.awaitRows(service, "turns", "fp-contract", 1);
        AnalyticsTest.awaitRows(service, "feedback", "fp-contract", 3);

        String base = "/v1/analytics/{projectId}";
        analytics.assertMatches(base + "/assistant", "get", admin("/v1/analytics/acme/assistant"));
        analytics.assertMatches(base + "/assistant/threads/{threadId}", "get",
                admin("/v1/analytics/acme/assistant/threads/" + thread));
        analytics.assertMatches(base + "/assistant/threads/{threadId}", "get",
                admin("/v1/analytics/acme/assistant/threads/thr_none"));
        analytics.assertMatches(base + "/assistant/caller-stats", "get",
                admin("/v1/analytics/acme/assistant/caller-stats?dateFrom=2024-01-01T00:00"));
        JsonNode feedback = analytics.assertMatches(base + "/feedback", "get", admin("/v1/analytics/acme/feedback"));
        assertEquals(3, feedback.get("feedback").size(), feedback.toString());
        JsonNode votes = analytics.assertMatches(base + "/feedback", "get",
                admin("/v1/analytics/acme/feedback?source=thumbs_only"));
        assertEquals("thumbs_only", votes.get("feedback").get(0).get("source").asText(), votes.toString());
        analytics.assertMatches(base + "/feedback/by-page", "get", admin("/v1/analytics/acme/feedback/by-page"));
        analytics.assertMatches(base + "/searches", "get", admin("/v1/analytics/acme/searches?dateTo=2999-01-01T00:00Z"));
        assertEquals(200, send("POST", "/v1/page/acme", ServiceTest.ACME_KEY, "{\"path\":\"/quickstart\"}")
                .statusCode());
        AnalyticsTest.awaitViews(service, 1);
        JsonNode views = analytics.assertMatches(base + "/views", "get", admin("/v1/analytics/acme/views?limit=250"));
        assertTrue(views.get("totals").get("total").asLong() >= 1, views.toString());
        JsonNode visitors = analytics.assertMatches(base + "/visitors", "get",
                admin("/v1/analytics/acme/visitors?offset=0"));
        assertEquals(1, visitors.get("totals").get("total").asLong(), visitors.toString());
        analytics.assertMatches(base + "/views", "get", admin("/v1/analytics/acme/views?limit=251"));
        JsonNode error = analytics.assertMatches(base + "/assistant", "get",
                admin("/v1/analytics/acme/assistant?dateFrom=yesterday"));
        assertTrue(error.get("error").asText().contains("dateFrom"), error.toString());
    }

    @Test
    void theUpdateEndpointsAnswerAsMintlifysDocumentSays() throws Exception {
        Spec admin = Spec.read("openapi.json");
        JsonNode queued = admin.assertMatches("/project/update/{projectId}", "post",
                send("POST", "/v1/project/update/acme", AnalyticsTest.ADMIN_KEY, null));
        String path = "/v1/project/update-status/" + queued.get("statusId").asText();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonNode status;
        do {
            assertTrue(System.nanoTime() < deadline, "the update did not end");
            Thread.sleep(50);
            status = admin.assertMatches("/project/update-status/{statusId}", "get", admin(path));
        } while (!status.has("endedAt"));
        assertEquals("success", status.get("status").asText(), status.toString());
        assertEquals("api", status.get("source").asText());
        assertEquals("acme", status.get("subdomain").asText());
        assertTrue(status.get("commit").get("filesChanged").has("added"), status.toString());
    }

    /** One of Mintlify's documents: the schema of each operation's response, by status. */
    private record Spec(JsonNode document) {

        static Spec read(String file) throws IOException {
            return new Spec(JSON.readTree(SPECS.resolve(file).toFile()));
        }

        /** The response's body, after checking its status is one the operation has and its body that status's schema. */
        JsonNode assertMatches(String path, String method, HttpResponse<String> response) throws IOException {
            JsonNode operation = document.path("paths").path(path).path(method);
            assertTrue(operation.isObject(), "no " + method + " " + path + " in Mintlify's document");
            JsonNode described = operation.path("responses").path(Integer.toString(response.statusCode()));
            assertTrue(described.isObject(), method + " " + path + " answered " + response.statusCode()
                    + ", a status Mintlify's document does not have: " + response.body());
            JsonNode schema = described.path("content").path("application/json").path("schema");
            JsonNode body = JSON.readTree(response.body());
            // the schema as a document of its own, with the components its $refs name
            ObjectNode root = schema.deepCopy();
            root.set("components", document.path("components"));
            Schema validator = SchemaRegistry.withDialect(document.path("openapi").asText().startsWith("3.0")
                    ? Dialects.getOpenApi30() : Dialects.getOpenApi31()).getSchema(root);
            List<String> errors = validator.validate(body).stream().map(Object::toString).toList();
            assertEquals(List.of(), errors, method + " " + path + " " + response.statusCode() + ": " + body);
            return body;
        }
    }

    private HttpResponse<String> ask(String fp, String question) throws Exception {
        String body = ServiceTest.conversation(null, null, question).replace("\"fp-test\"", "\"" + fp + "\"")
                .replaceFirst("\\{", "{\"currentPath\":\"/quickstart\",");
        HttpResponse<String> response = send("POST", "/v1/assistant/acme/message", ServiceTest.ACME_KEY, body);
        assertEquals(200, response.statusCode(), response.body());
        return response;
    }

    private HttpResponse<String> admin(String path) throws Exception {
        return send("GET", path, AnalyticsTest.ADMIN_KEY, null);
    }

    private HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(service.uri(path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Authorization", "Bearer " + key);
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
