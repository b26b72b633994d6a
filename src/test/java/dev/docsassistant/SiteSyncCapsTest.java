package dev.docsassistant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A site's sync is bounded in what it asks, against the live service: an {@code llms.txt} of 300 links that all
 * answer 404 fails the sync after {@code max-failures} of them instead of asking for every one, and a slow crawl (300
 * pages, 300 ms each) of a domain removed from the tenants file stops asking at once (it kept crawling for hours).
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/site-sync-caps/tenants.yaml",
        "assistant.search.semantic=false", "assistant.sources.refresh-seconds=0",
        "assistant.sources.allow-private-addresses=true", "assistant.sources.allow-http=true",
        "assistant.sources.request-delay-ms=0",
        "assistant.sources.max-failures=20", "assistant.tenants.reload-seconds=1",
        "assistant.sources.dir=target/site-sync-caps/sources", ServiceTest.UNLIMITED_ADDRESS_RATE})
class SiteSyncCapsTest extends GitSyncTest {

    private static final CapturedLogs LOGS = CapturedLogs.capture();
    private static final Path FILE = Path.of("target/site-sync-caps/tenants.yaml").toAbsolutePath();
    private static final List<String> ASKED = new CopyOnWriteArrayList<>();
    private static final HttpServer SITES;

    static {
        try {
            SITES = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            SITES.setExecutor(Executors.newFixedThreadPool(4));
            SITES.createContext("/", exchange -> {
                try (exchange) {
                    String path = exchange.getRequestURI().getPath();
                    ASKED.add(path);
                    if (path.endsWith("/llms.txt")) {
                        StringBuilder links = new StringBuilder("# Docs\n\n");
                        for (int i = 0; i < 300; i++) {
                            links.append("- [Page ").append(i).append("](").append(path.replace("llms.txt", "p"))
                                    .append(i).append(")\n");
                        }
                        byte[] body = links.toString().getBytes(StandardCharsets.UTF_8);
                        exchange.sendResponseHeaders(200, body.length);
                        exchange.getResponseBody().write(body);
                        return;
                    }
                    if (path.startsWith("/slow/p")) { // a page, slowly: 300 of them take 90 s
                        Thread.sleep(300);
                        byte[] page = ("# Page\n\nThe page " + path + ".\n").getBytes(StandardCharsets.UTF_8);
                        exchange.sendResponseHeaders(200, page.length);
                        exchange.getResponseBody().write(page);
                        return;
                    }
                    exchange.sendResponseHeaders(404, -1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            SITES.start();
            write(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(boolean withSlow) throws IOException {
        String url = "http://127.0.0.1:" + SITES.getAddress().getPort();
        Files.createDirectories(FILE.getParent());
        Path next = FILE.resolveSibling("tenants.yaml.next");
        Files.writeString(next, """
                organizations:
                  - id: acme
                    apiKeys: [%s]
                    adminKeys: [%s]
                    domains:
                      - id: broken
                        docs: {site: "%s/broken/"}
                %s""".formatted(ACME_KEY, ADMIN_KEY, url, withSlow ? """
                      - id: slow
                        docs: {site: "%s/slow/"}
                """.formatted(url) : ""));
        Files.move(next, FILE, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @AfterAll
    void stopServer() {
        SITES.stop(0);
    }

    @Override
    protected boolean awaitsReadiness() {
        return false; // neither site has a page to index
    }

    private static long asked(String prefix) {
        return ASKED.stream().filter(path -> path.startsWith(prefix)).count();
    }

    @Test
    void aSiteOfBrokenLinksFailsAtItsCapInsteadOfAskingForEach() throws Exception {
        long before = asked("/broken/p");
        JsonNode status = update("broken", ADMIN_KEY);
        assertEquals("failure", status.get("status").asText(), status.toString());
        assertTrue(status.get("summary").asText().contains("more than 20 pages")
                && status.get("summary").asText().contains("(assistant.sources.max-failures)"), status.toString());
        assertEquals(21, asked("/broken/p") - before, "21 pages asked, not 300");
    }

    @Test
    void aRemovedDomainsSyncStopsAsking() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (asked("/slow/p") < 3) { // its first sync, at the start, is crawling
            assertTrue(System.nanoTime() < deadline, "the slow site was not crawled: " + ASKED);
            Thread.sleep(50);
        }
        write(false);
        deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (LOGS.lines().stream().noneMatch(line -> line.contains("Cannot index domain 'slow'")
                && line.contains("sync cancelled"))) {
            assertTrue(System.nanoTime() < deadline, "the removed domain's sync did not stop: "
                    + asked("/slow/p") + " pages asked");
            Thread.sleep(50);
        }
        long stopped = asked("/slow/p");
        Thread.sleep(1_500);
        assertEquals(stopped, asked("/slow/p"), "no page asked after the sync stopped");
        assertTrue(stopped < 60, "it stopped soon after the removal: " + stopped + " pages of 300 asked");
    }
}
