package dev.docsassistant;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.docsassistant.analytics.RecordWriter;
import dev.docsassistant.analytics.Records;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The docs team's dashboard in a real browser: headless Chromium (Debian's, which .ci/run installs) loads the page
 * from a seeded store and the test reads the DOM it rendered: both charts painted pixels (the page counts them from
 * the canvas once uPlot drew), and the tables hold the seeded questions, pages and searches.
 */
class DashboardTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void theDashboardDrawsASeededStoreInChromium(@TempDir Path folder) throws Exception {
        boolean installed = Files.isExecutable(CHROMIUM);
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("chromium is not installed: .ci/run must install it");
        }
        Assumptions.assumeTrue(installed, "chromium is not installed (apt-get install chromium; .ci/run does): "
                + "the dashboard's browser test skipped");
        Map<String, String> properties = AnalyticsTest.properties(folder.resolve("data"));
        properties.put("assistant.topics.enabled", "true");
        properties.put("assistant.topics.period-seconds", "1");
        try (ServiceInstance service = ServiceInstance.start(properties, http)) {
            RecordWriter writer = service.bean("recordWriter", RecordWriter.class);
            Instant day = Instant.parse("2021-06-01T10:00:00Z");
            for (int i = 0; i < 12; i++) {
                Instant at = day.plus(Duration.ofDays(i % 3));
                boolean unanswered = i % 4 == 0;
                writer.offer(new Records.Turn("acme", "acme", "thr_dash_" + i, "msg_" + i, "fp-dashboard", at, at,
                        unanswered ? "How do I <b>self-host</b> it?" : "How do I change the port?", "…", "answer",
                        "[]", unanswered ? "unanswered" : "answered", i % 2 == 0 ? "web" : "api", null, null,
                        "https://acme.example.com/docs/" + (unanswered ? "self-hosting" : "configuration")));
            }
            writer.offer(new Records.Feedback("acme", "acme", "fp-dashboard", "contextual", "/quickstart", false,
                    null, null, null, null, null, null, null, day));
            // results unknown (NULL), as the rows kept before V56: not a search that found nothing
            writer.offer(new Records.Search("acme", "acme", "rate limits", day));
            // searched twice, found nothing: the "No results" table; "helm" found a page
            for (String query : List.of("<i>helm</i> chart", "<i>helm</i> chart", "helm")) {
                writer.offer(new Records.Search("acme", "acme", query, day, "v-helm",
                        query.equals("helm") ? "\n/deploy\n" : "\n", day.plusSeconds(600)));
            }
            // "port" searched twice by one visitor, who opened a page it returned after the second: CTR 50 %
            writer.offer(new Records.Search("acme", "acme", "port", day, "v-port", "\n/configuration\n",
                    day.plusSeconds(60)));
            writer.offer(new Records.Search("acme", "acme", "port", day.plusSeconds(120), "v-port",
                    "\n/configuration\n", day.plusSeconds(180)));
            writer.offer(new Records.View("acme", "acme", "/configuration", "v-port", "human", day.plusSeconds(150)));
            AnalyticsTest.awaitRows(service, "turns", "fp-dashboard", 12);
            AnalyticsTest.awaitRows(service, "feedback", "fp-dashboard", 1);
            AnalyticsTest.awaitCount(service, "SELECT COUNT(*) FROM page_views WHERE visitor = ?", "v-port", 1);
            AnalyticsTest.awaitCount(service, "SELECT COUNT(*) FROM turns WHERE fp = ? AND topic_id IS NOT NULL",
                    "fp-dashboard", 12);

            HttpResponse<String> page = http.send(HttpRequest.newBuilder(service.uri("/dashboard/acme")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode());
            assertEquals("no-store", page.headers().firstValue("Cache-Control").orElse(null),
                    "an admin page is never kept by a cache");
            assertTrue(page.headers().firstValue("Content-Security-Policy").orElseThrow()
                    .contains("connect-src 'self'"));
            assertFalse(page.body().contains("http://") && page.body().contains("<script src"), "nothing from a CDN");

            String dom = chromium(folder, service.uri("/dashboard/acme") + "#key=" + AnalyticsTest.ADMIN_KEY
                    + "&from=2021-06-01&to=2021-06-04");
            assertTrue(dom.contains("data-loaded=\"true\""), dom);
            assertTrue(painted(dom, "perDay") > 0, "questions per day drawn");
            assertTrue(painted(dom, "callers") > 0, "caller types drawn");
            assertTrue(dom.contains("12 questions, 25.0 % unanswered"), dom);
            assertTrue(dom.contains("How do I &lt;b&gt;self-host&lt;/b&gt; it?"), "a question is text, not markup");
            assertTrue(dom.contains("/quickstart") && dom.contains("rate limits"), dom);
            assertTrue(dom.contains("<tr><td>How do I &lt;b&gt;self-host&lt;/b&gt; it?</td><td>3</td>"
                    + "<td>https://acme.example.com/docs/self-hosting</td>"), "the gap and its closest page: " + dom);
            assertTrue(dom.contains("<tr><td>port</td><td>2</td><td>50.0 %</td><td>/configuration</td></tr>"),
                    "a clicked search's click-through rate: " + dom);
            String noResults = dom.substring(dom.indexOf("<table id=\"noResults\""));
            noResults = noResults.substring(0, noResults.indexOf("</table>"));
            assertTrue(noResults.contains("<tbody><tr><td>&lt;i&gt;helm&lt;/i&gt; chart</td><td>2</td></tr></tbody>"),
                    "the search that found nothing, as text, and only it: " + noResults);
        }
    }

    @Test
    void aRatedAnswerShowsAndItsTranscriptOpensRenderedAndSanitized(@TempDir Path folder) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) || "true".equals(System.getenv("CI")),
                "chromium is not installed: the dashboard's browser test skipped");
        try (ServiceInstance service = ServiceInstance.start(AnalyticsTest.properties(folder.resolve("data")), http)) {
            RecordWriter writer = service.bean("recordWriter", RecordWriter.class);
            Instant at = Instant.parse("2021-07-01T10:00:00Z");
            writer.offer(new Records.Turn("acme", "acme", "thr_rated", "msg_rated_1", "fp-rated", at, at,
                    "How do I change the port?", "Set **server.port**.<script>document.title='owned'</script>"
                            + "<img src=x onerror=\"document.title='owned'\">", "answer",
                    "[{\"title\":\"Configuration\",\"url\":\"https://acme.example.com/docs/configuration\"}]",
                    "answered", "web", null, "https://acme.example.com/docs/quickstart"));
            writer.offer(new Records.Turn("acme", "acme", "thr_rated", "msg_rated_2", "fp-rated",
                    at.plusSeconds(60), at.plusSeconds(60), "And on Kubernetes?", "See the manifests.", "answer", "[]",
                    "unanswered", "web", null, null));
            writer.offer(new Records.Turn("acme", "acme", "thr_other", "msg_other", "fp-rated", at, at,
                    "What is a kamelet?", "…", "answer", "[]", "unanswered", "api", null, null));
            writer.offer(new Records.Feedback("acme", "acme", "fp-rated", "assistant", null, false, null, null, null,
                    null, null, "thr_rated", "msg_rated_1", at.plusSeconds(30)));
            AnalyticsTest.awaitRows(service, "turns", "fp-rated", 3);
            AnalyticsTest.awaitRows(service, "feedback", "fp-rated", 1);

            String dom = chromium(folder, service.uri("/dashboard/acme") + "#key=" + AnalyticsTest.ADMIN_KEY
                    + "&from=2021-07-01&to=2021-07-02&thread=thr_rated");
            assertTrue(dom.contains("data-loaded=\"true\""), dom);
            assertTrue(dom.contains("0 helpful, 1 not helpful"), "the answer's rating counted: " + dom);
            Matcher row = Pattern.compile("<tr><td>How do I change the port\\?</td><td>2</td><td>([^<]*)</td>"
                    + "<td>web</td>").matcher(dom);
            assertTrue(row.find(), "the conversation's first question and turns: " + dom);
            assertEquals("👎 not helpful", row.group(1), "the conversation's feedback badge");
            assertTrue(dom.contains("<td>What is a kamelet?</td><td>1</td><td></td><td>api</td>"), dom);
            assertTrue(dom.contains("<dialog id=\"transcript\" aria-labelledby=\"transcriptTitle\" open=\"\">"),
                    "the transcript opened: " + dom);
            assertTrue(dom.contains("Set <strong>server.port</strong>."), "the answer's Markdown rendered: " + dom);
            assertTrue(dom.contains("Assistant · 👎 not helpful") && dom.contains("And on Kubernetes?")
                    && dom.contains("Configuration: https://acme.example.com/docs/configuration"), dom);
            assertFalse(dom.contains("owned") || dom.contains("onerror"), "the answer's markup sanitized: " + dom);
        }
    }

    private static int painted(String dom, String chart) {
        Matcher matcher = Pattern.compile("id=\"" + chart + "\"[^>]*data-painted=\"(\\d+)\"").matcher(dom);
        assertTrue(matcher.find(), chart + " has no painted count: " + dom);
        return Integer.parseInt(matcher.group(1));
    }

    private static String chromium(Path folder, String url) throws IOException, InterruptedException {
        Path profile = Files.createDirectories(folder.resolve("chromium"));
        Process process = new ProcessBuilder(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage",
                "--user-data-dir=" + profile, "--virtual-time-budget=20000", "--dump-dom", url))
                .redirectError(folder.resolve("chromium.log").toFile()).start();
        String dom = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "chromium did not finish");
        return dom;
    }
}
