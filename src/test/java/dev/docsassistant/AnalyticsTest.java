package dev.docsassistant;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.analytics.RecordWriter;
import dev.docsassistant.analytics.Records;
import org.apache.camel.Exchange;
import org.apache.camel.Route;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The store of record and Mintlify's analytics API over real HTTP, on the embedded database in a folder of the
 * test's own: what a restarted service still exports, every endpoint's field names, cursor paging and date filters,
 * the widget's feedback, a reader's erasure, the shared hourly quota, and a database that is down. Each test works
 * on its own reader ({@code fp}) or its own rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnalyticsTest {

    static final String ADMIN_KEY = "mint_adm_acme_secret_0123456789";
    static final String GLOBEX_ADMIN_KEY = "mint_adm_globex_secret_0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = client();
    @TempDir
    static Path dataDir;
    private ServiceInstance service;

    /** An HTTP/1.1 client, as these classes talk to the services they start. */
    static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    static Map<String, String> properties(Path dataDir) {
        return new HashMap<>(Map.of("assistant.tenants-file", "src/test/resources/tenants-admin.yaml",
                "assistant.search.semantic", "false", "assistant.search.reload-seconds", "0",
                "assistant.ratelimit.ip-per-minute", "0", "assistant.records.data-dir", dataDir.toString(),
                "assistant.topics.enabled", "false"));
    }

    @BeforeAll
    void start() throws Exception {
        service = ServiceInstance.start(properties(dataDir.resolve("shared")), http);
    }

    @AfterAll
    void stop() {
        service.close();
    }

    @Test
    void aRestartedServiceStillExportsTheConversationsItHad() throws Exception {
        Path folder = Files.createDirectory(dataDir.resolve("restart"));
        List<String> threads = new ArrayList<>();
        try (ServiceInstance first = ServiceInstance.start(properties(folder), http)) {
            threads.add(ask(first, "fp-restart", "How do I change the port?", null).headers()
                    .firstValue("X-Thread-Id").orElseThrow());
            threads.add(ask(first, "fp-restart", "How do I run the service?", null).headers()
                    .firstValue("X-Thread-Id").orElseThrow());
            awaitRows(first, "turns", "fp-restart", 2);
        }
        try (ServiceInstance again = ServiceInstance.start(properties(folder), http)) {
            JsonNode export = json(get(again, "/v1/analytics/acme/assistant", ADMIN_KEY));
            Set<String> exported = new HashSet<>();
            export.get("conversations").forEach(row -> exported.add(row.get("conversationId").asText()));
            assertEquals(new HashSet<>(threads), exported, export.toString());
        }
    }

    @Test
    void everyEndpointAnswersWithMintlifysFieldNames() throws Exception {
        String thread = ask(service, "fp-fields", "How do I change the port?", "https://acme.example.com")
                .headers().firstValue("X-Thread-Id").orElseThrow();
        ask(service, "fp-fields", "zzqx wibble frobnicate", null);
        post(service, "/v1/search/acme", ServiceTest.ACME_KEY, "{\"query\":\"change the port\"}");
        post(service, "/v1/search/acme", ServiceTest.ACME_KEY, "{\"query\":\"change the port\"}");
        awaitRows(service, "turns", "fp-fields", 2);

        JsonNode rows = json(get(service, "/v1/analytics/acme/assistant", ADMIN_KEY));
        JsonNode answered = row(rows, "How do I change the port?");
        assertEquals(thread, answered.get("id").asText());
        assertEquals(thread, answered.get("conversationId").asText());
        assertEquals("answer", answered.get("responseType").asText());
        assertEquals("answered", answered.get("resolutionStatus").asText());
        assertEquals("web", answered.get("callerType").asText());
        assertEquals("https://acme.example.com/docs/quickstart", answered.get("pageUrl").asText());
        assertEquals(answered.get("pageUrl"), answered.get("turnPageUrl"));
        assertFalse(answered.get("response").asText().isBlank());
        JsonNode source = answered.get("sources").get(0);
        assertTrue(source.has("title") && source.get("url").asText().startsWith("https://acme.example.com/docs/"),
                answered.toString());
        assertTrue(answered.has("queryCategory") && answered.has("timestamp"), answered.toString());
        JsonNode unanswered = row(rows, "zzqx wibble frobnicate");
        assertEquals("unanswered", unanswered.get("resolutionStatus").asText(), unanswered.toString());
        assertEquals("api", unanswered.get("callerType").asText());
        assertTrue(unanswered.get("sources").isEmpty() && unanswered.get("queryCategory").isNull());
        assertTrue(rows.has("nextCursor") && rows.has("hasMore"));

        JsonNode conversation = json(get(service, "/v1/analytics/acme/assistant/threads/" + thread, ADMIN_KEY));
        assertEquals(thread, conversation.get("threadId").asText(), "Mintlify's shape: threadId, createdAt");
        JsonNode messages = conversation.get("messages");
        assertEquals(messages.get(0).get("createdAt"), conversation.get("createdAt"));
        assertEquals(List.of("user", "assistant"), List.of(messages.get(0).get("role").asText(),
                messages.get(1).get("role").asText()));
        assertEquals("How do I change the port?", messages.get(0).get("content").asText());
        assertTrue(messages.get(1).has("id") && messages.get(1).get("createdAt").isTextual());
        assertEquals(messages.get(1).get("createdAt"), messages.get(1).get("timestamp"));
        assertEquals(404, get(service, "/v1/analytics/acme/assistant/threads/thr_none", ADMIN_KEY).statusCode());

        JsonNode callers = json(get(service, "/v1/analytics/acme/assistant/caller-stats", ADMIN_KEY));
        assertTrue(callers.get("web").asLong() >= 1 && callers.get("api").asLong() >= 1, callers.toString());
        assertEquals(callers.get("web").asLong() + callers.get("api").asLong() + callers.get("other").asLong(),
                callers.get("total").asLong());

        awaitSearches(service, "change the port", 2);
        JsonNode searches = json(get(service, "/v1/analytics/acme/searches", ADMIN_KEY));
        JsonNode term = searches.get("searches").get(0);
        assertEquals("change the port", term.get("searchQuery").asText(), searches.toString());
        assertEquals(2, term.get("hits").asLong());
        assertTrue(term.get("ctr").isNumber() && term.has("topClickedPage") && term.has("lastSearchedAt"), term.toString());
        assertTrue(searches.get("totalSearches").asLong() >= 2 && searches.has("nextCursor"));

        assertEquals(401, get(service, "/v1/analytics/acme/assistant", ServiceTest.ACME_KEY).statusCode(),
                "the public key reads no analytics");
        assertEquals(403, get(service, "/v1/analytics/acme/assistant", GLOBEX_ADMIN_KEY).statusCode());
        HttpResponse<String> badDate = get(service, "/v1/analytics/acme/assistant?dateFrom=yesterday", ADMIN_KEY);
        assertEquals(400, badDate.statusCode());
        JsonNode error = JSON.readTree(badDate.body()); // Mintlify's analytics error: {error, details: [{message}]}
        assertTrue(error.get("error").asText().startsWith("dateFrom must be"), error.toString());
        assertEquals(error.get("error"), error.get("details").get(0).get("message"));
        for (String extreme : new String[] {"dateFrom=%2B999999999-12-31T23:59:59Z", "dateTo=-999999-01-01T00:00:00Z",
                "dateFrom=1969-12-31", "dateTo=9999-12-31"}) {
            HttpResponse<String> refused = get(service, "/v1/analytics/acme/assistant?" + extreme, ADMIN_KEY);
            assertEquals(400, refused.statusCode(), extreme + ": " + refused.body());
            assertTrue(refused.body().contains("must be from 1970-01-01 to 9999-01-01"), refused.body());
        }
        assertEquals(400, get(service, "/v1/analytics/acme/assistant?limit=1001", ADMIN_KEY).statusCode());
        assertEquals(400, get(service, "/v1/analytics/acme/assistant?cursor=abc", ADMIN_KEY).statusCode());
    }

    @Test
    void eachTurnKeepsThePageItsSearchCameClosestTo() throws Exception {
        ask(service, "fp-closest", "How do I change the port?", null);
        ask(service, "fp-closest", "zzqx wibble frobnicate", null);
        awaitRows(service, "turns", "fp-closest", 2);
        Map<String, String[]> turns = new HashMap<>();
        try (Connection connection = service.bean("records", Records.class).connection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT question, closest_page, sources FROM turns WHERE fp = 'fp-closest'");
                ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                turns.put(rs.getString(1), new String[] {rs.getString(2), rs.getString(3)});
            }
        }
        String[] answered = turns.get("How do I change the port?");
        assertTrue(answered[0] != null && answered[0].startsWith("https://acme.example.com/docs/")
                && answered[1].contains("\"url\":\"" + answered[0]), "the top hit, the page cited: " + answered[0]);
        assertNull(turns.get("zzqx wibble frobnicate")[0], "a search that found no page names none");
    }

    @Test
    void pageUrlIsWhereTheConversationStarted() throws Exception {
        String thread = ask(service, "fp-started", "How do I change the port?", null).headers()
                .firstValue("X-Thread-Id").orElseThrow(); // asked on /quickstart
        String followUp = ServiceTest.conversation(thread, null, "How do I change the port?", "And the host?")
                .replace("\"fp-test\"", "\"fp-started\"").replaceFirst("\\{", "{\"currentPath\":\"/guides/widget\",");
        assertEquals(200, post(service, "/v1/assistant/acme/message", ServiceTest.ACME_KEY, followUp).statusCode());
        awaitRows(service, "turns", "fp-started", 2);
        JsonNode second = row(json(get(service, "/v1/analytics/acme/assistant", ADMIN_KEY)), "And the host?");
        assertEquals("https://acme.example.com/docs/quickstart", second.get("pageUrl").asText(), second.toString());
        assertEquals("https://acme.example.com/docs/guides/widget", second.get("turnPageUrl").asText());
    }

    @Test
    void cursorPagingOver250RowsReturnsEachRowOnceAndDatesFilter() throws Exception {
        RecordWriter writer = service.bean("recordWriter", RecordWriter.class);
        Instant day = Instant.parse("2020-03-01T12:00:00Z");
        for (int i = 0; i < 250; i++) {
            Instant at = day.plus(Duration.ofDays(i % 5));
            writer.offer(new Records.Turn("acme", "acme", "thr_paged_" + i, "msg_" + i, "fp-paged", at, at,
                    "question " + i, "answer", "answer", "[]", "unanswered", "api", null, null));
        }
        awaitRows(service, "turns", "fp-paged", 250);

        Set<String> seen = new HashSet<>();
        int pages = 0;
        String cursor = null;
        do {
            JsonNode page = json(get(service, "/v1/analytics/acme/assistant?dateFrom=2020-03-01&dateTo=2020-03-06"
                    + "&limit=100" + (cursor == null ? "" : "&cursor=" + cursor), ADMIN_KEY));
            page.get("conversations").forEach(row -> assertTrue(seen.add(row.get("id").asText()), "twice: " + row));
            cursor = page.get("hasMore").asBoolean() ? page.get("nextCursor").asText() : null;
            pages++;
        } while (cursor != null);
        assertEquals(250, seen.size());
        assertEquals(3, pages);

        JsonNode secondDay = json(get(service, "/v1/analytics/acme/assistant?dateFrom=2020-03-02"
                + "&dateTo=2020-03-03T00:00:00Z&limit=1000", ADMIN_KEY));
        assertEquals(50, secondDay.get("conversations").size(), "dateFrom inclusive, dateTo exclusive");
        for (String[] iso : new String[][] {{"2020-03-02T00:00:00", "2020-03-03T00:00Z"},
                {"2020-03-02T00:00", "2020-03-03T01:00+01:00"}}) { // ISO 8601: seconds and zone optional (UTC)
            assertEquals(50, json(get(service, "/v1/analytics/acme/assistant?dateFrom=" + iso[0] + "&dateTo="
                    + iso[1].replace("+", "%2B") + "&limit=1000", ADMIN_KEY)).get("conversations").size(),
                    String.join(" to ", iso));
        }
        secondDay.get("conversations").forEach(row -> assertTrue(row.get("timestamp").asText()
                .startsWith("2020-03-02"), row.toString()));
        assertEquals(50, json(get(service, "/v1/analytics/acme/assistant/caller-stats?dateFrom=2020-03-05"
                + "&dateTo=2020-03-06", ADMIN_KEY)).get("total").asLong());
    }

    @Test
    void everyFeedbackTypeIsStoredExportedAndAggregatedByPage() throws Exception {
        String page = "/guides/feedback-test";
        assertEquals(200, post(service, "/v1/assistant/acme/feedback/page", ServiceTest.ACME_KEY,
                "{\"fp\":\"fp-feedback\",\"path\":\"" + page + "\",\"helpful\":true}").statusCode());
        assertEquals(200, post(service, "/v1/assistant/acme/feedback/page", ServiceTest.ACME_KEY,
                "{\"fp\":\"fp-feedback\",\"path\":\"" + page + "\",\"helpful\":false,\"contact\":\"r@example.com\","
                        + "\"comment\":\"Step 3 fails\"}").statusCode());
        assertEquals(200, post(service, "/v1/assistant/acme/feedback/code", ServiceTest.ACME_KEY,
                "{\"fp\":\"fp-feedback\",\"path\":\"" + page + "\",\"code\":\"npm i acme\",\"filename\":\"a.sh\","
                        + "\"lang\":\"bash\"}").statusCode());
        for (String bad : List.of("{\"helpful\":true}", "{\"path\":\"no-slash\",\"helpful\":true}",
                "{\"path\":\"/p\"}", "{\"path\":\"/p\",\"helpful\":true,\"contact\":\"" + "x".repeat(321) + "\"}")) {
            HttpResponse<String> refused = post(service, "/v1/assistant/acme/feedback/page", ServiceTest.ACME_KEY, bad);
            assertEquals(400, refused.statusCode(), bad);
            assertTrue(refused.headers().firstValue("Content-Type").orElseThrow().startsWith("application/problem+json"));
        }
        assertEquals(400, post(service, "/v1/assistant/acme/feedback/code", ServiceTest.ACME_KEY,
                "{\"path\":\"/p\",\"code\":\"" + "x".repeat(20_001) + "\"}").statusCode());
        assertEquals(401, post(service, "/v1/assistant/acme/feedback/page", null,
                "{\"path\":\"/p\",\"helpful\":true}").statusCode());
        HttpResponse<String> answer = ask(service, "fp-feedback", "How do I change the port?", null);
        String thread = answer.headers().firstValue("X-Thread-Id").orElseThrow();
        assertEquals(200, post(service, "/v1/assistant/acme/feedback", ServiceTest.ACME_KEY,
                FeedbackTest.body("fp-feedback", thread, FeedbackTest.messageId(answer), "down").toString())
                .statusCode());
        assertEquals(404, post(service, "/v1/assistant/acme/feedback", ServiceTest.ACME_KEY,
                FeedbackTest.body("fp-other", thread, FeedbackTest.messageId(answer), "up").toString()).statusCode(),
                "another reader's answer is not rated, nor kept");
        awaitRows(service, "feedback", "fp-feedback", 4);
        JsonNode rating = json(get(service, "/v1/analytics/acme/feedback?source=thumbs_only", ADMIN_KEY))
                .get("feedback").get(0);
        assertEquals(thread, rating.get("threadId").asText());
        assertEquals("thumbs_only", rating.get("source").asText(), "Mintlify's name for a thumbs up/down vote");
        assertEquals("", rating.get("path").asText(), "a string, as Mintlify's schema requires");
        assertEquals(rating, json(get(service, "/v1/analytics/acme/feedback?source=assistant", ADMIN_KEY))
                .get("feedback").get(0), "this API's former name still filters");
        assertFalse(rating.get("helpful").asBoolean());
        assertEquals(0, count(service, "feedback", "fp-other"));

        JsonNode all = json(get(service, "/v1/analytics/acme/feedback", ADMIN_KEY));
        List<JsonNode> ours = new ArrayList<>();
        all.get("feedback").forEach(entry -> {
            if (page.equals(entry.get("path").asText())) {
                ours.add(entry);
            }
        });
        assertEquals(3, ours.size(), all.toString());
        JsonNode code = ours.get(0);
        assertEquals("code_snippet", code.get("source").asText());
        assertEquals(List.of("npm i acme", "a.sh", "bash"), List.of(code.get("code").asText(),
                code.get("filename").asText(), code.get("lang").asText()));
        JsonNode down = ours.get(1);
        assertEquals("contextual", down.get("source").asText());
        assertFalse(down.get("helpful").asBoolean());
        assertEquals("r@example.com", down.get("contact").asText());
        assertEquals("Step 3 fails", down.get("comment").asText());
        assertEquals("pending", down.get("status").asText());
        assertTrue(down.get("id").asText().startsWith("fb_") && down.has("createdAt"));

        // triage: the row's status set, then filtered by; another domain's row is not found
        String row = down.get("id").asText();
        HttpResponse<String> resolved = send(service, "PATCH", "/v1/analytics/acme/feedback/" + row, ADMIN_KEY,
                "{\"status\":\"resolved\"}");
        assertEquals(200, resolved.statusCode(), resolved.body());
        assertEquals("resolved", JSON.readTree(resolved.body()).get("status").asText());
        JsonNode triaged = json(get(service, "/v1/analytics/acme/feedback?status=resolved", ADMIN_KEY)).get("feedback");
        assertEquals(1, triaged.size(), triaged.toString());
        assertEquals(row, triaged.get(0).get("id").asText());
        assertEquals(400, send(service, "PATCH", "/v1/analytics/acme/feedback/" + row, ADMIN_KEY,
                "{\"status\":\"closed\"}").statusCode());
        assertEquals(200, post(service, "/v1/assistant/globex/feedback/page", "mint_dsc_globex_test",
                "{\"fp\":\"fp-feedback-globex\",\"path\":\"/quickstart\",\"helpful\":true}").statusCode());
        awaitRows(service, "feedback", "fp-feedback-globex", 1);
        for (String other : List.of("fb_" + rowId(service, "fp-feedback-globex"), "fb_999999", "by-page", "12")) {
            HttpResponse<String> missing = send(service, "PATCH", "/v1/analytics/acme/feedback/" + other, ADMIN_KEY,
                    "{\"status\":\"dismissed\"}");
            assertEquals(404, missing.statusCode(), other + " (another domain's row, or none): " + missing.body());
        }
        assertEquals(401, send(service, "PATCH", "/v1/analytics/acme/feedback/" + row, ServiceTest.ACME_KEY,
                "{\"status\":\"dismissed\"}").statusCode(), "the public key triages nothing");

        JsonNode contextual = json(get(service, "/v1/analytics/acme/feedback?source=contextual&status=pending",
                ADMIN_KEY));
        contextual.get("feedback").forEach(entry -> assertEquals("contextual", entry.get("source").asText()));
        assertEquals(400, get(service, "/v1/analytics/acme/feedback?source=email", ADMIN_KEY).statusCode());

        JsonNode byPage = json(get(service, "/v1/analytics/acme/feedback/by-page?limit=100", ADMIN_KEY));
        JsonNode counts = null;
        for (JsonNode entry : byPage.get("feedback")) {
            if (page.equals(entry.get("path").asText())) {
                counts = entry;
            }
        }
        assertEquals(JSON.readTree("{\"path\":\"" + page + "\",\"thumbsUp\":1,\"thumbsDown\":1,\"code\":1,"
                + "\"total\":3}"), counts, byPage.toString());
    }

    @Test
    void erasingAReaderRemovesTheirRowsFromTheDatabase() throws Exception {
        ask(service, "fp-erase", "How do I change the port?", null);
        ask(service, "fp-keep", "How do I change the port?", null);
        post(service, "/v1/assistant/acme/feedback/page", ServiceTest.ACME_KEY,
                "{\"fp\":\"fp-erase\",\"path\":\"/quickstart\",\"helpful\":true}");
        awaitRows(service, "turns", "fp-erase", 1);
        awaitRows(service, "feedback", "fp-erase", 1);
        awaitRows(service, "turns", "fp-keep", 1);

        HttpResponse<String> erased = send(service, "DELETE", "/v1/admin/acme/threads?fp=fp-erase", ADMIN_KEY, null);
        assertEquals(200, erased.statusCode(), erased.body());
        assertEquals(0, count(service, "turns", "fp-erase"));
        assertEquals(0, count(service, "feedback", "fp-erase"));
        assertEquals(1, count(service, "turns", "fp-keep"), "another reader's rows stay");
    }

    /**
     * An organization holds at most max-erasures tombstones: past it an erasure answers 503 and removes nothing
     * from the store; erasing a reader already held again, or another organization's reader, still works.
     */
    @Test
    void anErasurePastTheOrganizationsMaxErasuresIsRefused() throws Exception {
        Map<String, String> properties = properties(dataDir.resolve("max-erasures"));
        properties.put("assistant.records.max-erasures", "2");
        try (ServiceInstance bounded = ServiceInstance.start(properties, http)) {
            ask(bounded, "fp-third", "How do I change the port?", null);
            awaitRows(bounded, "turns", "fp-third", 1);
            for (String fp : List.of("fp-first", "fp-second")) {
                assertEquals(200, send(bounded, "DELETE", "/v1/admin/acme/threads?fp=" + fp, ADMIN_KEY, null)
                        .statusCode(), fp);
            }
            HttpResponse<String> refused = send(bounded, "DELETE", "/v1/admin/acme/threads?fp=fp-third", ADMIN_KEY,
                    null);
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals("analytics_unavailable", JSON.readTree(refused.body()).get("code").asText());
            assertEquals(1, count(bounded, "turns", "fp-third"), "a refused erasure removed rows");
            assertEquals(200, send(bounded, "DELETE", "/v1/admin/acme/threads?fp=fp-first", ADMIN_KEY, null)
                    .statusCode(), "a reader whose tombstone is held is erased again");
            assertEquals(200, send(bounded, "DELETE", "/v1/admin/globex/threads?fp=fp-third", GLOBEX_ADMIN_KEY,
                    null).statusCode(), "another organization's erasures are its own");
        }
    }

    @Test
    void theRetentionRouteDeletesOnlyEachOrganizationsRowsOlderThanItsRetention() throws Exception {
        RecordWriter writer = service.bean("recordWriter", RecordWriter.class);
        for (int days : List.of(91, 40, 20)) { // acme keeps 90 days (the property), globex 30 (its tenants entry)
            Instant at = Instant.now().minus(Duration.ofDays(days));
            for (String organization : List.of("acme", "globex")) {
                writer.offer(new Records.Turn(organization, organization, "thr_old", "msg_" + days,
                        "fp-retention-" + organization, at, at, "q", "a", "answer", "[]", "unanswered", "api", null,
                        null));
            }
        }
        awaitRows(service, "turns", "fp-retention-acme", 3);
        awaitRows(service, "turns", "fp-retention-globex", 3);
        Route retention = service.context().getRoute("records-retention");
        Exchange tick = new DefaultExchange(service.context());
        retention.getProcessor().process(tick); // the route's steps, as its timer runs them
        assertNull(tick.getException());
        assertEquals(2, count(service, "turns", "fp-retention-acme"), "acme: only the 91-day-old row is gone");
        assertEquals(1, count(service, "turns", "fp-retention-globex"), "globex: the 40- and 91-day-old rows");
    }

    @Test
    void theHundredAndFirstAnalyticsCallOfTheHourIsRefused() throws Exception {
        String thread = ask(service, "fp-quota", "How do I change the port?", null).headers()
                .firstValue("X-Thread-Id").orElseThrow();
        awaitRows(service, "turns", "fp-quota", 1);
        assertEquals(404, get(service, "/v1/analytics/globex/assistant/threads/" + thread, GLOBEX_ADMIN_KEY)
                .statusCode(), "another organization's thread, the hour's first call");
        List<String> endpoints = List.of("assistant", "assistant/caller-stats", "feedback", "feedback/by-page",
                "searches");
        for (int i = 1; i < 100; i++) {
            HttpResponse<String> allowed = get(service, "/v1/analytics/globex/" + endpoints.get(i % endpoints.size()),
                    GLOBEX_ADMIN_KEY);
            assertEquals(200, allowed.statusCode(), "call " + (i + 1) + ": " + allowed.body());
        }
        HttpResponse<String> refused = get(service, "/v1/analytics/globex/searches", GLOBEX_ADMIN_KEY);
        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals("analytics", refused.headers().firstValue("X-RateLimit-Scope").orElseThrow());
        assertTrue(refused.headers().firstValue("Retry-After").isPresent());
        assertEquals("rate_limited", JSON.readTree(refused.body()).get("code").asText());
        assertEquals(200, get(service, "/v1/analytics/acme/assistant/caller-stats", ADMIN_KEY).statusCode(),
                "another organization's quota is its own");
    }

    @Test
    void searchesKeptAreBoundedInLengthAndCountedInTheOrganizationsHourlyLimit() throws Exception {
        Map<String, String> limited = properties(dataDir.resolve("searches"));
        limited.put("assistant.ratelimit.org-per-hour", "3");
        try (ServiceInstance instance = ServiceInstance.start(limited, http)) {
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                statuses.add(post(instance, "/v1/search/acme", ServiceTest.ACME_KEY, "{\"query\":\"flood\"}")
                        .statusCode());
            }
            assertEquals(List.of(200, 200, 200, 429, 429), statuses, "a key holder's searches are its organization's");
            String tooLong = "x".repeat(2_001);
            assertEquals(400, post(instance, "/v1/search/globex", "mint_dsc_globex_test",
                    "{\"query\":\"" + tooLong + "\"}").statusCode());
            assertEquals(200, post(instance, "/v1/search/globex", "mint_dsc_globex_test",
                    "{\"query\":\"after the flood\"}").statusCode());
            awaitSearches(instance, "after the flood", 1); // one writer, in order: every earlier row is written
            try (Connection connection = instance.bean("records", Records.class).connection();
                    PreparedStatement select = connection.prepareStatement("SELECT organization_id, query, "
                            + "COUNT(*) FROM searches GROUP BY organization_id, query ORDER BY organization_id");
                    ResultSet rs = select.executeQuery()) {
                List<String> kept = new ArrayList<>();
                while (rs.next()) {
                    kept.add(rs.getString(1) + ":" + rs.getString(2) + ":" + rs.getLong(3));
                }
                assertEquals(List.of("acme:flood:3", "globex:after the flood:1"), kept,
                        "the refused searches and the over-long query are not kept");
            }
        }
    }

    @Test
    void pagesServedAreCountedByPathTrafficAndVisitorAndSearchesClickedHaveACtr() throws Exception {
        try (ServiceInstance instance = ServiceInstance.start(properties(dataDir.resolve("views")), http)) {
            JsonNode found = JSON.readTree(post(instance, "/v1/search/acme", ServiceTest.ACME_KEY,
                    "{\"query\":\"change the port\"}").body());
            String clicked = found.get(0).get("path").asText();
            String other = found.get(1).get("path").asText();
            assertEquals(200, post(instance, "/v1/page/acme", ServiceTest.ACME_KEY, "{\"path\":\"" + clicked
                    + "\"}").statusCode());
            // a web page's fetch is human traffic; the same page as Markdown, by an agent, ai
            HttpResponse<String> human = http.send(HttpRequest.newBuilder(instance.uri("/v1/page/acme"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"path\":\"" + clicked + "\"}"))
                    .header("Content-Type", "application/json").header("Origin", "https://acme.example.com")
                    .header("Authorization", "Bearer " + ServiceTest.ACME_KEY).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, human.statusCode(), human.body());
            assertEquals(200, send(instance, "GET", "/sites/acme" + other + ".md", null, null).statusCode());
            // not served, not counted
            assertEquals(404, post(instance, "/v1/page/acme", ServiceTest.ACME_KEY, "{\"path\":\"/no/such\"}")
                    .statusCode());
            // viewed before it was searched: no click of this search
            post(instance, "/v1/search/acme", ServiceTest.ACME_KEY, "{\"query\":\"port\"}");
            assertEquals("[]", post(instance, "/v1/search/acme", ServiceTest.ACME_KEY,
                    "{\"query\":\"zzqx wibble frobnicate\"}").body(), "a search that finds nothing");
            awaitViews(instance, 3);
            awaitSearches(instance, "zzqx wibble frobnicate", 1);

            JsonNode views = json(get(instance, "/v1/analytics/acme/views", ADMIN_KEY));
            assertEquals(JSON.readTree("{\"human\":1,\"ai\":2,\"total\":3}"), views.get("totals"));
            assertEquals(JSON.readTree("[{\"path\":\"" + clicked + "\",\"human\":1,\"ai\":1,\"total\":2},"
                    + "{\"path\":\"" + other + "\",\"human\":0,\"ai\":1,\"total\":1}]"), views.get("views"));
            assertFalse(views.get("hasMore").asBoolean());
            JsonNode second = json(get(instance, "/v1/analytics/acme/views?limit=1&offset=1", ADMIN_KEY));
            assertEquals(other, second.get("views").get(0).get("path").asText(), second.toString());
            assertEquals(0, json(get(instance, "/v1/analytics/acme/views?dateTo=2020-01-01", ADMIN_KEY))
                    .get("totals").get("total").asLong());
            assertEquals(400, get(instance, "/v1/analytics/acme/views?offset=-1", ADMIN_KEY).statusCode());
            assertEquals(400, get(instance, "/v1/analytics/acme/visitors?limit=251", ADMIN_KEY).statusCode());

            // one address: one visitor, human and ai, counted once in the total
            JsonNode visitors = json(get(instance, "/v1/analytics/acme/visitors", ADMIN_KEY));
            assertEquals(JSON.readTree("{\"human\":1,\"ai\":1,\"total\":1}"), visitors.get("totals"));
            assertEquals(JSON.readTree("{\"path\":\"" + clicked + "\",\"human\":1,\"ai\":1,\"total\":1}"),
                    visitors.get("visitors").get(0));

            JsonNode searches = json(get(instance, "/v1/analytics/acme/searches", ADMIN_KEY));
            Map<String, JsonNode> terms = new HashMap<>();
            searches.get("searches").forEach(term -> terms.put(term.get("searchQuery").asText(), term));
            assertEquals(1.0, terms.get("change the port").get("ctr").asDouble(), searches.toString());
            assertEquals(clicked, terms.get("change the port").get("topClickedPage").asText());
            assertEquals(0.0, terms.get("port").get("ctr").asDouble(), searches.toString());
            assertTrue(terms.get("port").get("topClickedPage").isNull());
            // the dashboard's no-result searches: the one that found nothing, not those that found pages
            assertEquals(JSON.readTree("[{\"query\":\"zzqx wibble frobnicate\",\"count\":1}]"),
                    json(get(instance, "/v1/analytics/acme/dashboard", ADMIN_KEY)).get("noResultSearches"));

            // the public key, and another organization's admin key, read none of it
            for (String path : List.of("/v1/analytics/acme/views", "/v1/analytics/acme/visitors")) {
                assertEquals(401, get(instance, path, null).statusCode(), path);
                int reader = get(instance, path, ServiceTest.ACME_KEY).statusCode();
                assertTrue(reader == 401 || reader == 403, path + " answered the public key " + reader);
                int globex = get(instance, path, GLOBEX_ADMIN_KEY).statusCode();
                assertTrue(globex == 401 || globex == 403, path + " answered globex's admin key " + globex);
            }
        }
    }

    @Test
    void theDocsTeamsCallsDoNotSpendTheReadersHourlyQuota() throws Exception {
        Map<String, String> limited = properties(dataDir.resolve("admin-quota"));
        limited.put("assistant.ratelimit.org-per-hour", "2");
        try (ServiceInstance instance = ServiceInstance.start(limited, http)) {
            for (String path : List.of("/v1/analytics/acme/assistant", "/v1/admin/acme/gaps", "/v1/admin/acme/threads",
                    "/v1/analytics/acme/searches")) {
                HttpResponse<String> admin = get(instance, path, ADMIN_KEY);
                assertEquals(200, admin.statusCode(), path + ": " + admin.body());
                assertFalse("org".equals(admin.headers().firstValue("X-RateLimit-Scope").orElse("")), path);
            }
            assertEquals(200, post(instance, "/v1/search/acme", ServiceTest.ACME_KEY, "{\"query\":\"port\"}")
                    .statusCode());
            ask(instance, "fp-admin-quota", "How do I change the port?", null); // the hour's second reader request
            HttpResponse<String> third = post(instance, "/v1/search/acme", ServiceTest.ACME_KEY, "{\"query\":\"x\"}");
            assertEquals(429, third.statusCode(), "the readers' quota still holds");
            assertEquals("org", third.headers().firstValue("X-RateLimit-Scope").orElseThrow());
        }
    }

    @Test
    void whenTheDatabaseGoesDownAnswersGoOnAndAnalyticsAnswer503() throws Exception {
        try (PostgresServer postgres = PostgresServer.startOrSkip()) {
            Map<String, String> down = properties(dataDir.resolve("unused"));
            down.put("assistant.records.jdbc-url", postgres.jdbcUrl());
            down.put("assistant.records.username", PostgresServer.USER);
            down.put("assistant.records.connect-timeout-ms", "300");
            down.put("assistant.records.retry-pause-ms", "50");
            down.put("assistant.records.queue-size", "1");
            try (ServiceInstance broken = ServiceInstance.start(down, http)) {
                assertEquals(200, get(broken, "/v1/analytics/acme/assistant", ADMIN_KEY).statusCode(),
                        "a good start: the database is there");
                postgres.stop();
                // The writer holds a batch it cannot write (each try waits out the connect timeout) and the queue
                // holds one row: the next answers' rows are dropped and counted, and every answer is whole all the
                // same.
                for (int asked = 1; dropped(broken, "full") == 0; asked++) {
                    assertTrue(asked <= 20, "a row past the full queue is counted: " + metrics(broken));
                    HttpResponse<String> answer = ask(broken, "fp-down", "How do I change the port?", null);
                    assertTrue(answer.body().contains("port") && answer.body().contains("\"finishReason\":\"stop\""),
                            answer.body());
                }
                for (String path : List.of("/v1/analytics/acme/assistant", "/v1/analytics/acme/feedback",
                        "/v1/analytics/acme/searches")) {
                    HttpResponse<String> unavailable = get(broken, path, ADMIN_KEY);
                    assertEquals(503, unavailable.statusCode(), path);
                    assertEquals("analytics_unavailable", JSON.readTree(unavailable.body()).get("code").asText());
                    assertTrue(unavailable.headers().firstValue("Retry-After").isPresent());
                }
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (dropped(broken, "failed") == 0) {
                    assertTrue(System.nanoTime() < deadline, "the unwritten turn is counted: " + metrics(broken));
                    Thread.sleep(100);
                }
                assertEquals(503, send(broken, "DELETE", "/v1/admin/acme/threads?fp=fp-down", ADMIN_KEY, null)
                        .statusCode(), "an erasure the database did not do is not reported done");
            }
        }
    }

    /** {@code assistant_records_dropped_total} for the reason, 0 before the first drop. */
    private double dropped(ServiceInstance instance, String reason) throws Exception {
        return metrics(instance).lines().filter(line -> line.startsWith("assistant_records_dropped_total{")
                && line.contains("reason=\"" + reason + "\"")).mapToDouble(line -> Double.parseDouble(
                        line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    private String metrics(ServiceInstance instance) throws Exception {
        return http.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                + ServiceTest.managementPort(instance.context()) + "/observe/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private HttpResponse<String> ask(ServiceInstance instance, String fp, String question, String origin)
            throws Exception {
        String body = ServiceTest.conversation(null, null, question).replace("\"fp-test\"", "\"" + fp + "\"")
                .replaceFirst("\\{", "{\"currentPath\":\"/quickstart\",");
        HttpRequest.Builder request = HttpRequest.newBuilder(instance.uri("/v1/assistant/acme/message"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + ServiceTest.ACME_KEY)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (origin != null) {
            request.header("Origin", origin);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response;
    }

    private HttpResponse<String> get(ServiceInstance instance, String path, String key) throws Exception {
        return send(instance, "GET", path, key, null);
    }

    private HttpResponse<String> post(ServiceInstance instance, String path, String key, String body)
            throws Exception {
        return send(instance, "POST", path, key, body);
    }

    private HttpResponse<String> send(ServiceInstance instance, String method, String path, String key, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(instance.uri(path)).timeout(Duration.ofSeconds(15))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private static JsonNode row(JsonNode page, String query) {
        for (JsonNode row : page.get("conversations")) {
            if (query.equals(row.get("query").asText())) {
                return row;
            }
        }
        throw new AssertionError("no row for '" + query + "' in " + page);
    }

    /** Erases the reader of acme's domain on the instance, as its admin. */
    static HttpResponse<String> erase(HttpClient http, ServiceInstance instance, String fp) throws Exception {
        return http.send(HttpRequest.newBuilder(instance.uri("/v1/admin/acme/threads?fp=" + fp)).DELETE()
                .header("Authorization", "Bearer " + ADMIN_KEY).timeout(Duration.ofSeconds(15)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Rows of the reader in the table, read from the database itself (not through the rate-limited API). */
    static long count(ServiceInstance instance, String table, String fp) throws Exception {
        try (Connection connection = instance.bean("records", Records.class).connection();
                PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM " + table
                        + " WHERE fp = ?")) {
            select.setString(1, fp);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The id of the reader's (one) feedback row, read from the database itself. */
    private static long rowId(ServiceInstance instance, String fp) throws Exception {
        try (Connection connection = instance.bean("records", Records.class).connection();
                PreparedStatement select = connection.prepareStatement("SELECT id FROM feedback WHERE fp = ?")) {
            select.setString(1, fp);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Waits for the writer's thread to have written the reader's rows. */
    static void awaitRows(ServiceInstance instance, String table, String fp, long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (count(instance, table, fp) < expected) {
            assertTrue(System.nanoTime() < deadline, "the rows of " + fp + " were not written");
            Thread.sleep(50);
        }
        assertEquals(expected, count(instance, table, fp));
    }

    /** Waits for the writer's thread to have written {@code expected} page views. */
    static void awaitViews(ServiceInstance instance, long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try (Connection connection = instance.bean("records", Records.class).connection();
                    PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM page_views");
                    ResultSet rs = select.executeQuery()) {
                rs.next();
                if (rs.getLong(1) >= expected) {
                    return;
                }
            }
            assertTrue(System.nanoTime() < deadline, "the page views were not written");
            Thread.sleep(50);
        }
    }

    private static void awaitSearches(ServiceInstance instance, String query, long expected) throws Exception {
        awaitCount(instance, "SELECT COUNT(*) FROM searches WHERE query = ?", query, expected);
    }

    /** Waits for a count of the store of record, of one parameter, to reach {@code expected}. */
    static void awaitCount(ServiceInstance instance, String sql, String parameter, long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try (Connection connection = instance.bean("records", Records.class).connection();
                    PreparedStatement select = connection.prepareStatement(sql)) {
                select.setString(1, parameter);
                try (ResultSet rs = select.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) >= expected) {
                        return;
                    }
                }
            }
            assertTrue(System.nanoTime() < deadline, "not reached: " + sql + " " + parameter + " " + expected);
            Thread.sleep(50);
        }
    }
}
