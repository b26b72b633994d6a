package dev.docsassistant;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The docs team's endpoints over real HTTP, on an instance keeping threads in memory and one on a real Redis:
 * admin keys only (and public endpoints refuse them), the NDJSON export paged by time, one thread, the gaps grouped
 * by wording, and a reader's erasure. Each test works on its own reader ({@code fp}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminThreadsTest {

    private static final String ADMIN_KEY = "mint_adm_acme_secret_0123456789";
    private static final String GLOBEX_ADMIN_KEY = "mint_adm_globex_secret_0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, ServiceInstance> instances = new HashMap<>();
    private RedisServer redis;

    @BeforeAll
    void start() throws Exception {
        Map<String, String> memory = new HashMap<>(Map.of("assistant.tenants-file",
                "src/test/resources/tenants-admin.yaml", "assistant.search.semantic", "false",
                "assistant.search.reload-seconds", "0", "assistant.ratelimit.ip-per-minute", "0"));
        instances.put("memory", ServiceInstance.start(memory, http));
        redis = RedisServer.startOrSkip();
        Map<String, String> onRedis = ServiceInstance.onRedis(redis.url(5), "closed", 100_000);
        onRedis.putAll(memory);
        instances.put("redis", ServiceInstance.start(onRedis, http));
    }

    @AfterAll
    void stop() throws Exception {
        instances.values().forEach(ServiceInstance::close);
        if (redis != null) {
            redis.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void adminEndpointsTakeAdminKeysOnlyAndPublicEndpointsRefuseThem(String store) throws Exception {
        ServiceInstance service = instances.get(store);
        for (String path : List.of("/v1/admin/acme/threads", "/v1/admin/acme/threads/thr_x", "/v1/admin/acme/gaps")) {
            assertEquals(401, get(service, path, ServiceTest.ACME_KEY).statusCode(), path + " with the public key");
            assertEquals(401, get(service, path, null).statusCode(), path + " without a key");
            assertEquals(403, get(service, path, GLOBEX_ADMIN_KEY).statusCode(), path + " with another's admin key");
        }
        assertEquals(401, send(service, "DELETE", "/v1/admin/acme/threads?fp=f", ServiceTest.ACME_KEY).statusCode());
        assertEquals(401, service.message(http, "acme", ADMIN_KEY, ServiceTest.question("Hi?")).statusCode());
        assertEquals(401, send(service, "POST", "/v1/search/acme", ADMIN_KEY).statusCode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void theExportStreamsEachThreadAsALinePagedByTime(String store) throws Exception {
        ServiceInstance service = instances.get(store);
        String fp = "fp-export-" + store;
        List<String> ids = new ArrayList<>();
        for (String question : List.of("How do I run the service?", "How do I change the port?",
                "What is a tenant?")) {
            ids.add(ask(service, fp, null, question).headers().firstValue("X-Thread-Id").orElseThrow());
        }
        ask(service, fp, ids.get(0), "And the port?");

        HttpResponse<String> all = get(service, "/v1/admin/acme/threads?fp=" + fp, ADMIN_KEY);
        assertEquals(200, all.statusCode(), all.body());
        assertEquals("application/x-ndjson", all.headers().firstValue("Content-Type").orElseThrow());
        List<JsonNode> lines = lines(all.body());
        assertEquals(List.of(ids.get(1), ids.get(2), ids.get(0)), lines.stream().map(l -> l.get("id").asText())
                .toList(), "oldest first by when last spoken in");
        JsonNode continued = lines.get(2);
        assertEquals(fp, continued.get("fp").asText());
        assertEquals(2, continued.get("turns").size());
        JsonNode turn = continued.get("turns").get(0);
        assertEquals("How do I run the service?", turn.get("question").asText());
        assertFalse(turn.get("answer").asText().isBlank());
        assertFalse(turn.get("sources").isEmpty());
        assertTrue(turn.get("answered").asBoolean() && turn.get("complete").asBoolean(), turn.toString());
        assertFalse(continued.has("keyHash"));

        List<JsonNode> page = lines(get(service, "/v1/admin/acme/threads?limit=2&fp=" + fp, ADMIN_KEY).body());
        assertEquals(2, page.size());
        String next = page.get(1).get("updatedAt").asText();
        List<JsonNode> rest = lines(get(service, "/v1/admin/acme/threads?fp=" + fp + "&since=" + next, ADMIN_KEY)
                .body());
        assertEquals(ids.get(0), rest.get(rest.size() - 1).get("id").asText(), "the next page goes on from there");
        assertTrue(lines(get(service, "/v1/admin/acme/threads?fp=" + fp + "&until=" + lines.get(0).get("updatedAt")
                .asText(), ADMIN_KEY).body()).isEmpty(), "until is exclusive");
        assertEquals(400, get(service, "/v1/admin/acme/threads?since=yesterday", ADMIN_KEY).statusCode());

        HttpResponse<String> one = get(service, "/v1/admin/acme/threads/" + ids.get(0), ADMIN_KEY);
        assertEquals(200, one.statusCode(), one.body());
        assertEquals(2, JSON.readTree(one.body()).get("turns").size());
        assertEquals(404, get(service, "/v1/admin/acme/threads/thr_unknown", ADMIN_KEY).statusCode());
        assertEquals(404, get(service, "/v1/admin/globex/threads/" + ids.get(0), GLOBEX_ADMIN_KEY).statusCode(),
                "another domain's thread");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void gapsGroupTheUnansweredQuestionsByWordingMostAskedFirst(String store) throws Exception {
        ServiceInstance service = instances.get(store);
        String fp = "fp-gaps-" + store;
        // words no page has: the search finds nothing, so the extractive model says the docs do not cover them
        for (String question : List.of("zorblax frobnitz quuxification?", "Zorblaxes frobnitz quuxification",
                "How do I run the service?", "wibblewobble gronk?", "the quuxification of zorblax frobnitz")) {
            ask(service, fp, null, question);
        }
        HttpResponse<String> response = get(service, "/v1/admin/acme/gaps?fp=" + fp, ADMIN_KEY);
        assertEquals(200, response.statusCode(), response.body());
        JsonNode gaps = JSON.readTree(response.body()).get("gaps");
        assertEquals(2, gaps.size(), gaps.toString());
        assertEquals(3, gaps.get(0).get("count").asInt(), gaps.toString());
        assertEquals("zorblax frobnitz quuxification?", gaps.get(0).get("question").asText());
        assertEquals(3, gaps.get(0).get("examples").size());
        assertEquals("wibblewobble gronk?", gaps.get(1).get("question").asText());
        assertEquals(1, gaps.get(1).get("count").asInt());
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void erasureRemovesEveryThreadOfTheReaderAndNoOneElses(String store) throws Exception {
        ServiceInstance service = instances.get(store);
        String fp = "fp-erase-" + store;
        String other = "fp-keep-" + store;
        String threadId = ask(service, fp, null, "How do I run the service?").headers().firstValue("X-Thread-Id")
                .orElseThrow();
        ask(service, fp, null, "How do I change the port?");
        ask(service, other, null, "How do I change the port?");

        HttpResponse<String> erased = send(service, "DELETE", "/v1/admin/acme/threads?fp=" + fp, ADMIN_KEY);
        assertEquals(200, erased.statusCode(), erased.body());
        assertEquals(2, JSON.readTree(erased.body()).get("erased").asInt());
        assertTrue(lines(get(service, "/v1/admin/acme/threads?fp=" + fp, ADMIN_KEY).body()).isEmpty());
        assertEquals(1, lines(get(service, "/v1/admin/acme/threads?fp=" + other, ADMIN_KEY).body()).size());
        assertEquals(404, get(service, "/v1/admin/acme/threads/" + threadId, ADMIN_KEY).statusCode());
        assertNotEquals(threadId, ask(service, fp, threadId, "And the port?").headers().firstValue("X-Thread-Id")
                .orElseThrow(), "the reader's next question starts a new thread");
        assertEquals(400, send(service, "DELETE", "/v1/admin/acme/threads", ADMIN_KEY).statusCode(), "fp required");
    }

    private HttpResponse<String> ask(ServiceInstance service, String fp, String threadId, String question)
            throws Exception {
        String body = ServiceTest.conversation(threadId, null, question).replace("\"fp-test\"", "\"" + fp + "\"");
        HttpResponse<String> response = service.message(http, "acme", ServiceTest.ACME_KEY, body);
        assertEquals(200, response.statusCode(), response.body());
        return response;
    }

    /** An until (or since) no store can count in is refused before the status line, not answered as an empty 200. */
    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void anInstantOutOfRangeIsRefused(String store) throws Exception {
        ServiceInstance service = instances.get(store);
        for (String query : List.of("until=%2B1000000000-12-31T23:59:59Z", "until=+1000000000-12-31T23:59:59Z",
                "since=-1000000000-01-01T00:00:00Z", "since=1969-12-31T23:59:59Z")) {
            HttpResponse<String> refused = get(service, "/v1/admin/acme/threads?" + query, ADMIN_KEY);
            assertEquals(400, refused.statusCode(), query + ": " + refused.body());
            assertEquals("application/problem+json", refused.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("invalid_request", JSON.readTree(refused.body()).get("code").asText(), refused.body());
        }
    }

    /**
     * A store failing after the first line (a thread whose record Redis holds corrupt, read after two good ones):
     * the 200 is sent, so the body ends with an error line rather than looking like a whole export.
     */
    @Test
    void anExportThatFailsAfterItsFirstLineEndsWithAnErrorLine() throws Exception {
        ServiceInstance service = instances.get("redis");
        String fp = "fp-export-fails";
        List<String> ids = new ArrayList<>();
        for (String question : List.of("How do I run the service?", "How do I change the port?", "What is a tenant?")) {
            ids.add(ask(service, fp, null, question).headers().firstValue("X-Thread-Id").orElseThrow());
        }
        String corrupt = "thread:{" + ids.get(2) + "}";
        redis.cli("-n", "5", "HSET", corrupt, "createdAt", "corrupt");
        HttpResponse<String> failed;
        try {
            failed = get(service, "/v1/admin/acme/threads?fp=" + fp, ADMIN_KEY);
        } finally {
            redis.cli("-n", "5", "DEL", corrupt, corrupt + ":turns"); // every listing of the domain reads it
        }
        assertEquals(200, failed.statusCode(), "the status line went with the first thread");
        List<JsonNode> lines = lines(failed.body());
        assertEquals(List.of(ids.get(0), ids.get(1)), lines.subList(0, 2).stream().map(l -> l.get("id").asText())
                .toList());
        assertEquals(3, lines.size(), failed.body());
        assertEquals("internal_error", lines.get(2).get("error").get("code").asText(), failed.body());
        assertFalse(lines.get(2).get("error").get("message").asText().isBlank());
    }

    /** Last, as it stops Redis: an export the store cannot answer gets 503 and a problem, not an empty 200. */
    @Order(Integer.MAX_VALUE)
    @Test
    void anExportWithTheStoreDownGetsItsStatus() throws Exception {
        ServiceInstance service = instances.get("redis");
        ask(service, "fp-store-down", null, "How do I run the service?");
        redis.kill();
        HttpResponse<String> failed = get(service, "/v1/admin/acme/threads?fp=fp-store-down", ADMIN_KEY);
        assertEquals(503, failed.statusCode(), failed.body());
        assertEquals("application/problem+json", failed.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("store_unavailable", JSON.readTree(failed.body()).get("code").asText(), failed.body());
    }

    private HttpResponse<String> get(ServiceInstance service, String path, String key) throws Exception {
        return send(service, "GET", path, key);
    }

    private HttpResponse<String> send(ServiceInstance service, String method, String path, String key)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(service.uri(path)).timeout(Duration.ofSeconds(15))
                .method(method, method.equals("POST") ? HttpRequest.BodyPublishers.ofString("{\"query\":\"port\"}")
                        : HttpRequest.BodyPublishers.noBody()).header("Content-Type", "application/json");
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<JsonNode> lines(String ndjson) throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : ndjson.split("\n")) {
            if (!line.isBlank()) {
                lines.add(JSON.readTree(line));
            }
        }
        return lines;
    }
}
