package dev.docsassistant;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hosted widget (issue 51) on a host page served from another origin (a server of the test's own on
 * {@code localhost}; the service is on {@code 127.0.0.1}), embedded as Mintlify's page shows it, in Debian's Chromium
 * driven by puppeteer-core (src/test/node/widget-browser.mjs): init resolves, ask() streams an answer through /v2,
 * sources link to the docs site, Helpful reaches the analytics API, Contact support carries the thread id, a follow-up
 * continues the thread, reset() starts another, {@code ?assistant=} asks on load, the hooks see the events, axe-core
 * finds no serious or critical violation; and a model's hostile answer neither runs nor becomes markup.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WidgetTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final String WIDGET_ID = "wid_acme_docs";
    private static final String SUPPORT = "https://support.acme.example.com/new?from=docs";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    @TempDir
    static Path folder;
    private HttpServer host;
    private String hostOrigin;
    private ServiceInstance service;

    @BeforeAll
    void start() throws Exception {
        host = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        host.start();
        hostOrigin = "http://localhost:" + host.getAddress().getPort();
        service = ServiceInstance.start(properties(folder.resolve("service")), http);
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
        host.stop(0);
    }

    /** A tenants file whose widget may be embedded by the host page's origin only, and the store of record. */
    private Map<String, String> properties(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path tenants = Files.writeString(dir.resolve("tenants.yaml"), """
                organizations:
                  - id: acme
                    apiKeys: [mint_dsc_acme_test]
                    adminKeys: [mint_adm_acme_secret_0123456789]
                    domains:
                      - id: acme
                        docs: classpath:demo-docs
                        siteUrl: https://acme.example.com/docs
                        allowedOrigins: [%s]
                        widget: {id: %s, supportUrl: "%s"}
                  - id: globex
                    apiKeys: [mint_dsc_globex_test]
                    domains:
                      - id: globex
                        docs: classpath:demo-docs
                """.formatted(hostOrigin, WIDGET_ID, SUPPORT));
        Map<String, String> properties = AnalyticsTest.properties(dir.resolve("data"));
        properties.put("assistant.tenants-file", tenants.toString());
        return properties;
    }

    /** The host page: Mintlify's embed (the loader, then init in a module script) with the hooks recorded. */
    private String hostPage(ServiceInstance instance, String path) {
        String endpoint = instance.uri("").toString();
        String page = """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>Acme docs</title>
                <script type="module" src="%1$s/widget.js"></script></head>
                <body><main><h1>Acme docs</h1><p>A page of the docs team's site.</p></main>
                <script type="module">
                  window.__events = []; window.__errors = [];
                  try {
                    await window.MintlifyAssistant.init({
                      id: "%2$s",
                      endpoint: "%1$s",
                      starterQuestions: ["How do I change the port?", "What limits apply?"],
                      hooks: { event: (e) => window.__events.push(e), error: (e) => window.__errors.push(e) },
                    });
                    window.__tti = performance.now();
                  } catch (e) { window.__initError = String(e.message); }
                </script></body></html>
                """.formatted(endpoint, WIDGET_ID);
        host.createContext(path, exchange -> {
            byte[] body = page.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        return hostOrigin + path;
    }

    private JsonNode browse(String scenario, String url) throws Exception {
        return browse(scenario, url, null);
    }

    /** Runs a scenario; {@code partial} completes when it printed {@code partial} (an answer shown in part). */
    private JsonNode browse(String scenario, String url, CompletableFuture<Void> partial) throws Exception {
        boolean installed = Files.isExecutable(CHROMIUM);
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("chromium is not installed: .ci/run must install it");
        }
        Assumptions.assumeTrue(installed, "chromium is not installed (apt-get install chromium; .ci/run does): "
                + "the widget's browser tests skipped");
        Path nodeDir = Path.of(System.getProperty("node.dir", "src/test/node"));
        Path profile = Files.createTempDirectory(folder, "chromium");
        Process node = new ProcessBuilder("node", "widget-browser.mjs", scenario, url, profile.toString())
                .directory(nodeDir.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String stdout = "";
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(node.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.equals("partial") && partial != null) {
                    partial.complete(null);
                } else {
                    stdout = line;
                }
            }
        }
        assertTrue(node.waitFor(120, TimeUnit.SECONDS), "the browser finished");
        assertEquals(0, node.exitValue(), "the scenario ran: " + stdout);
        JsonNode out = JSON.readTree(stdout);
        if (scenario.equals("demo")) {
            return out;
        }
        assertTrue(out.get("initError").isNull(), "init resolved: " + out);
        assertTrue(out.get("tti").asDouble() > 0, "init resolved: " + out);
        System.out.printf("widget: %s: init resolved %.0f ms after navigation started%n", scenario,
                out.get("tti").asDouble());
        return out;
    }

    @Test
    void aReaderAsksRatesContinuesAndStartsOverOnAnotherOriginsPage() throws Exception {
        JsonNode out = browse("reader", hostPage(service, "/reader"));
        JsonNode initial = out.get("initial");
        assertEquals("log/polite", initial.get("log").asText());
        assertEquals(List.of("How do I change the port?", "What limits apply?"), texts(initial.get("starters")));
        assertEquals(SUPPORT, initial.get("support").asText(), "no thread yet");

        JsonNode first = out.get("first");
        String thread = first.get("threadId").asText();
        assertTrue(thread.startsWith("thr_") || !thread.isBlank(), first.toString());
        assertTrue(first.get("answerText").asText().contains("camel.server.port"), first.toString());
        assertTrue(out.get("stopSeen").asBoolean(), "Stop shown while the answer streamed");
        assertFalse(first.get("sources").isEmpty(), first.toString());
        first.get("sources").forEach(source -> assertTrue(source.asText()
                .startsWith("https://acme.example.com/docs/"), "a source links to the docs site: " + source));
        assertEquals(SUPPORT.replace("from=docs", "from=docs&threadId=" + thread), first.get("support").asText(),
                "Contact support carries the thread id");

        JsonNode followUp = out.get("followUp");
        assertEquals(thread, followUp.get("threadId").asText(), "a follow-up continues the thread");
        assertEquals(List.of("How do I change the port?", "And the management port?"),
                texts(followUp.get("questions")));

        List<String> serious = new ArrayList<>();
        out.get("axe").forEach(violation -> {
            if (List.of("serious", "critical").contains(violation.get("impact").asText())) {
                serious.add(violation.toString());
            }
        });
        assertEquals(List.of(), serious, "axe-core: no serious or critical violation");

        assertFalse(out.get("afterEscape").get("open").asBoolean(), "Escape closes");
        assertEquals("trigger", out.get("afterEscape").get("focus").asText(), "focus back on the trigger");
        assertTrue(out.get("afterShortcut").get("open").asBoolean(), "Ctrl+I opens");
        assertEquals("TEXTAREA", out.get("afterShortcut").get("focus").asText(), "with the composer focused");

        assertTrue(out.get("afterReset").get("threadId").isNull(), out.get("afterReset").toString());
        String second = out.get("afterResetAnswer").get("threadId").asText();
        assertNotEquals(thread, second, "reset() started a new thread");
        assertEquals("Docs copilot", out.get("title").asText(), "update() patched the labels");
        assertEquals(0, out.get("afterDestroy").asInt(), "destroy() removed the widget");
        List<String> events = texts(out.get("events"));
        for (String expected : List.of("init:api:null", "open:api:test", "ask:api:test", "ask:user:composer",
                "close:user:escape", "open:user:shortcut", "reset:api:null", "update:api:null", "destroy:api:null")) {
            assertTrue(events.contains(expected), expected + " in " + events);
        }

        JsonNode rating = awaitFeedback(thread);
        assertTrue(rating.get("helpful").asBoolean(), rating.toString());
        assertEquals("thumbs_only", rating.get("source").asText(), rating.toString());
    }

    @Test
    void aDeepLinkOpensThePanelAndAsksOnLoad() throws Exception {
        JsonNode out = browse("deep-link",
                hostPage(service, "/deep") + "?assistant=How%20do%20I%20change%20the%20port%3F");
        JsonNode first = out.get("first");
        assertTrue(first.get("open").asBoolean());
        assertEquals(List.of("How do I change the port?"), texts(first.get("questions")));
        assertTrue(first.get("answerText").asText().contains("camel.server.port"), first.toString());
        assertTrue(texts(first.get("events")).contains("ask:api:deep-link"), first.toString());
    }

    @Test
    void theDemoPageAnswersFromTheBundledGuide() throws Exception {
        Map<String, String> properties = AnalyticsTest.properties(folder.resolve("demo"));
        properties.remove("assistant.tenants-file"); // the demo tenant, as java -jar starts it
        try (ServiceInstance demo = ServiceInstance.start(properties, http)) {
            JsonNode out = browse("demo",
                    demo.uri("/demo?assistant=How%20do%20I%20change%20the%20port%3F").toString());
            JsonNode first = out.get("first");
            assertEquals(List.of("How do I change the port?"), texts(first.get("questions")));
            assertTrue(first.get("answerText").asText().contains("camel.server.port"), first.toString());
            assertFalse(out.get("console").toString().contains("Content Security Policy"), "the page's CSP lets it run");
        }
    }

    @Test
    void aHostileAnswerNeitherRunsNorBecomesMarkup() throws Exception {
        String hostile = """
                ## Result

                Here is **bold** and a list:

                - one
                - two

                <script>window.__pwned = 'script'</script>
                <img src=x onerror="window.__pwned = 'img'">
                [click me](javascript:window.__pwned='link') and [another](JaVaScRiPt:alert(1))
                <iframe src="javascript:parent.__pwned='iframe'"></iframe>
                <iframe srcdoc="<script>parent.__pwned='srcdoc'</script>"></iframe>
                <a href="javascript:alert(1)" onmouseover="window.__pwned='hover'">hover</a>
                <svg onload="window.__pwned='svg'"><circle r="5"/></svg>
                <details open ontoggle="window.__pwned='toggle'">x</details>
                <style>*{display:none}</style>
                <form action="https://evil.example/"><button>go</button></form>

                ```js
                console.log("<script>alert(1)</script>");
                ```

                See [the quickstart](https://acme.example.com/docs/quickstart) and `<b>inline</b>`.

                [evil](javascript:alert%281%29) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)
                """;
        OpenAiStub stub = new OpenAiStub();
        Map<String, String> properties = properties(folder.resolve("hostile"));
        properties.putAll(Map.of("assistant.model.provider", "openai", "assistant.model.base-url", stub.baseUrl(),
                "assistant.model.api-key", "sk-test-widget", "assistant.model.name", "stub-model"));
        try (stub; ServiceInstance hostileService = ServiceInstance.start(properties, http)) {
            CompletableFuture<Void> partial = new CompletableFuture<>();
            String[] lines = hostile.split("(?<=\n)");
            stub.then(stub.gated(lines[0], partial, Arrays.copyOfRange(lines, 1, lines.length)), stub.endless());
            JsonNode out = browse("hostile", hostPage(hostileService, "/hostile"), partial);
            assertEquals("Result", out.get("partial").get("answerText").asText().trim(),
                    "the first line shown while the model held the rest");
            JsonNode first = out.get("first");
            String html = first.get("answerHtml").asText();
            assertTrue(first.get("pwned").isNull(), "nothing ran: " + first);
            assertTrue(out.get("dialogs").isEmpty(), "no alert: " + out.get("dialogs"));
            assertEquals(0, first.get("markup").asInt(), "no element of the answer's own: " + html);
            assertEquals(0, first.get("badLinks").asInt(), html);
            // the text of it may show, inert; none of it is an element or an attribute
            for (String forbidden : List.of("<script", "<iframe", "<img", "<svg", "<style", "<form", "<details",
                    "onerror=", "onmouseover=", "ontoggle=", "=\"javascript", "=\"data:", "srcdoc=")) {
                assertFalse(html.toLowerCase().contains(forbidden), forbidden + " in " + html);
            }
            for (String rendered : List.of("<h2>Result</h2>", "<strong>bold</strong>", "<li>one</li>",
                    "<code class=\"language-js\">", "href=\"https://acme.example.com/docs/quickstart\"",
                    "<code>&lt;b&gt;inline&lt;/b&gt;</code>", "rel=\"noopener noreferrer nofollow\">evil</a>")) {
                assertTrue(html.contains(rendered), rendered + " rendered: " + html);
            }
            assertTrue(out.get("url").asText().endsWith("/hostile"), "the page did not navigate");
            assertTrue(out.get("stopped").get("answerText").asText().contains("more"), out.toString());
            stub.abandoned.get(10, TimeUnit.SECONDS); // Stop closed the model's stream too
        }
    }

    @Test
    void theWidgetIdIsAcceptedFromItsDomainsAllowedOriginsOnly() throws Exception {
        HttpResponse<String> config = get("/v1/widget/config", WIDGET_ID, hostOrigin);
        assertEquals(200, config.statusCode(), config.body());
        assertEquals(hostOrigin, config.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
        JsonNode body = JSON.readTree(config.body());
        assertEquals("acme", body.get("domain").asText());
        assertEquals("https://acme.example.com/docs", body.get("siteUrl").asText());
        assertEquals(SUPPORT, body.get("supportUrl").asText());

        assertEquals(403, get("/v1/widget/config", WIDGET_ID, "https://evil.example").statusCode());
        assertEquals(403, get("/v1/widget/config", WIDGET_ID, null).statusCode(), "no Origin: not a page's");
        assertEquals(401, get("/v1/widget/config", "wid_unknown_id", hostOrigin).statusCode());
        assertEquals(401, get("/v1/widget/config", null, hostOrigin).statusCode());
        String question = "{\"id\":\"c1\",\"fp\":\"fp-widget\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\","
                + "\"parts\":[{\"type\":\"text\",\"text\":\"How do I change the port?\"}]}]}";
        HttpResponse<String> otherDomain = post("/v2/assistant/globex/message", WIDGET_ID, hostOrigin, question);
        assertEquals(403, otherDomain.statusCode(), "a widget id is its domain's only: " + otherDomain.body());
        assertTrue(otherDomain.headers().firstValue("Content-Type").orElseThrow()
                .startsWith("application/problem+json"));
        assertEquals(403, post("/v2/assistant/acme/message", WIDGET_ID, "https://evil.example", question)
                .statusCode());
        HttpResponse<String> answer = post("/v2/assistant/acme/message", WIDGET_ID, hostOrigin, question);
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("\"type\":\"text-delta\""), answer.body());
        assertEquals(401, get("/v1/analytics/acme/feedback", WIDGET_ID, hostOrigin).statusCode(),
                "never an admin key");
    }

    @Test
    void theLoaderIsSmallCachedAndLoadsAVersionedRuntime() throws Exception {
        HttpResponse<byte[]> loader = fetch("/widget.js", Map.of("Accept-Encoding", "gzip"));
        assertEquals(200, loader.statusCode());
        assertEquals("gzip", loader.headers().firstValue("Content-Encoding").orElseThrow());
        String etag = loader.headers().firstValue("ETag").orElseThrow();
        String loaderCode = gunzip(loader.body());
        Matcher runtimePath = Pattern.compile("/widget/[0-9a-f]{12}\\.js").matcher(loaderCode);
        assertTrue(runtimePath.find(), loaderCode);
        assertEquals(304, fetch("/widget.js", Map.of("If-None-Match", etag)).statusCode());

        HttpResponse<byte[]> runtime = fetch(runtimePath.group(), Map.of("Accept-Encoding", "gzip"));
        assertEquals(200, runtime.statusCode());
        assertTrue(runtime.headers().firstValue("Cache-Control").orElse("").contains("immutable"),
                runtime.headers().map().toString());
        assertTrue(runtime.headers().firstValue("Content-Type").orElseThrow().startsWith("text/javascript"));
        String runtimeCode = gunzip(runtime.body());
        assertTrue(runtimeCode.contains("DOMPurify") && runtimeCode.contains("marked"), "bundled, no CDN");
        int gzipBytes = loader.body().length + runtime.body().length;
        System.out.printf("widget: loader %d + runtime %d = %d bytes gzip (%d plain)%n", loader.body().length,
                runtime.body().length, gzipBytes, loaderCode.length() + runtimeCode.length());
        assertTrue(gzipBytes < 80 * 1024, "under 80 KiB gzip: " + gzipBytes);
        assertEquals(404, fetch("/widget/000000000000.js", Map.of()).statusCode(), "another version is not served");

        HttpResponse<byte[]> demo = fetch("/demo", Map.of());
        assertEquals(200, demo.statusCode());
        String page = new String(demo.body(), StandardCharsets.UTF_8);
        assertTrue(page.contains("src=\"/widget.js\"") && page.contains("demo-widget"), page);
    }

    private JsonNode awaitFeedback(String thread) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            JsonNode feedback = JSON.readTree(get("/v1/analytics/acme/feedback?source=assistant",
                    AnalyticsTest.ADMIN_KEY, null).body()).get("feedback");
            for (JsonNode entry : feedback) {
                if (thread.equals(entry.path("threadId").asText())) {
                    return entry;
                }
            }
            assertTrue(System.nanoTime() < deadline, "the rating reached the analytics: " + feedback);
            Thread.sleep(100);
        }
    }

    private HttpResponse<String> get(String path, String bearer, String origin) throws Exception {
        return http.send(request(path, bearer, origin).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String bearer, String origin, String body) throws Exception {
        return http.send(request(path, bearer, origin).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path, String bearer, String origin) {
        HttpRequest.Builder request = HttpRequest.newBuilder(service.uri(path)).timeout(Duration.ofSeconds(30));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        if (origin != null) {
            request.header("Origin", origin);
        }
        return request;
    }

    private HttpResponse<byte[]> fetch(String path, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(service.uri(path));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String gunzip(byte[] gzip) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.asText()));
        return texts;
    }
}
