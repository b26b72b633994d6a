package dev.docsassistant;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import dev.docsassistant.analytics.RecordWriter;
import dev.docsassistant.analytics.Records;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analytics' CSV exports over real HTTP: the assistant export's columns in Mintlify's names and order, a row's
 * values (sources as URLs, a formula-like question defused, a comma and a line break quoted), paging by cursor, the
 * other views' headers, and the admin key required.
 */
class AnalyticsCsvTest {

    private static final List<String> ASSISTANT_COLUMNS = List.of("id", "conversationId", "messageId", "timestamp",
            "query", "response", "responseType", "sources", "resolutionStatus", "queryCategory", "pageUrl",
            "callerType");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void everyViewExportsItsRowsAsCsvWithMintlifysColumns(@TempDir Path folder) throws Exception {
        try (ServiceInstance service = ServiceInstance.start(AnalyticsTest.properties(folder), http)) {
            RecordWriter writer = service.bean("recordWriter", RecordWriter.class);
            Instant at = Instant.parse("2026-10-01T10:00:00Z");
            writer.offer(new Records.Turn("acme", "acme", "thr_csv_1", "msg_csv_1", "fp-csv", at, at,
                    "=HYPERLINK(\"http://evil.example\")", "Use a comma, then\na new line.", "answer",
                    "[{\"title\":\"Quickstart\",\"url\":\"https://acme.example.com/docs/quickstart\"},"
                            + "{\"title\":\"Configuration\",\"url\":\"https://acme.example.com/docs/configuration\"}]",
                    "answered", "web", "Get started", "https://acme.example.com/docs/quickstart"));
            writer.offer(new Records.Turn("acme", "acme", "thr_csv_2", "msg_csv_2", "fp-csv", at.plusSeconds(1),
                    at.plusSeconds(1), "How do I change the port?", "…", "answer", "[]", "unanswered", "api", null,
                    null));
            writer.offer(new Records.Feedback("acme", "acme", "fp-csv", "contextual", "/quickstart", true, null,
                    "+1 great", null, null, null, null, null, at));
            writer.offer(new Records.Search("acme", "acme", "rate limits", at));
            AnalyticsTest.awaitRows(service, "turns", "fp-csv", 2);
            AnalyticsTest.awaitRows(service, "feedback", "fp-csv", 1);

            HttpResponse<String> first = get(service, "/v1/analytics/acme/assistant.csv?limit=1",
                    AnalyticsTest.ADMIN_KEY);
            assertEquals(200, first.statusCode(), first.body());
            assertEquals("text/csv; charset=utf-8", first.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("attachment; filename=\"assistant.csv\"",
                    first.headers().firstValue("Content-Disposition").orElseThrow());
            List<List<String>> rows = csv(first.body());
            assertEquals(ASSISTANT_COLUMNS, rows.get(0));
            assertEquals(2, rows.size(), "a header and one row (limit=1)");
            assertEquals("How do I change the port?", cell(rows, 1, "query"));
            assertEquals("unanswered", cell(rows, 1, "resolutionStatus"));
            assertEquals("", cell(rows, 1, "queryCategory"));

            String cursor = first.headers().firstValue("X-Next-Cursor").orElseThrow();
            HttpResponse<String> second = get(service, "/v1/analytics/acme/assistant.csv?limit=1&cursor=" + cursor,
                    AnalyticsTest.ADMIN_KEY);
            assertTrue(second.headers().firstValue("X-Next-Cursor").isEmpty(), "the last page");
            rows = csv(second.body());
            assertEquals("'=HYPERLINK(\"http://evil.example\")", cell(rows, 1, "query"), "a formula is not run");
            assertEquals("Use a comma, then\na new line.", cell(rows, 1, "response"));
            assertEquals("https://acme.example.com/docs/quickstart https://acme.example.com/docs/configuration",
                    cell(rows, 1, "sources"));
            assertEquals("thr_csv_1", cell(rows, 1, "conversationId"));
            assertEquals("2026-10-01T10:00:00Z", cell(rows, 1, "timestamp"));
            assertEquals("web", cell(rows, 1, "callerType"));
            assertEquals("Get started", cell(rows, 1, "queryCategory"));

            List<List<String>> searches = csv(get(service, "/v1/analytics/acme/searches.csv",
                    AnalyticsTest.ADMIN_KEY).body());
            assertEquals(List.of("searchQuery", "hits", "ctr", "topClickedPage", "lastSearchedAt"), searches.get(0));
            assertEquals("rate limits", cell(searches, 1, "searchQuery"));
            List<List<String>> feedback = csv(get(service, "/v1/analytics/acme/feedback.csv",
                    AnalyticsTest.ADMIN_KEY).body());
            assertEquals("'+1 great", cell(feedback, 1, "comment"));
            assertEquals("true", cell(feedback, 1, "helpful"));
            List<List<String>> byPage = csv(get(service, "/v1/analytics/acme/feedback/by-page.csv",
                    AnalyticsTest.ADMIN_KEY).body());
            assertEquals(List.of("path", "thumbsUp", "thumbsDown", "code", "total"), byPage.get(0));
            assertEquals(List.of("/quickstart", "1", "0", "0", "1"), byPage.get(1));

            assertEquals(401, get(service, "/v1/analytics/acme/assistant.csv", ServiceTest.ACME_KEY).statusCode());
            assertEquals(403, get(service, "/v1/analytics/acme/assistant.csv", AnalyticsTest.GLOBEX_ADMIN_KEY)
                    .statusCode());
            assertEquals(400, get(service, "/v1/analytics/acme/assistant.csv?limit=0", AnalyticsTest.ADMIN_KEY)
                    .statusCode());
        }
    }

    private static String cell(List<List<String>> rows, int row, String column) {
        return rows.get(row).get(rows.get(0).indexOf(column));
    }

    private static List<List<String>> csv(String text) throws Exception {
        CsvMapper mapper = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY);
        List<List<String>> rows = new ArrayList<>();
        try (MappingIterator<List<String>> lines = mapper.readerForListOf(String.class).readValues(text)) {
            lines.forEachRemaining(rows::add);
        }
        return rows;
    }

    private HttpResponse<String> get(ServiceInstance service, String path, String key) throws Exception {
        return http.send(HttpRequest.newBuilder(service.uri(path)).timeout(Duration.ofSeconds(15))
                .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
    }
}
