package dev.docsassistant;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Git host gone bad, against the live service: one that redirects to another host gets no request there and no
 * credential (JGit's own provider gave the token to any host asking), and one that answers something else than Git
 * has its text kept out of the update's status and the log.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/git-traps/tenants.yaml",
        "assistant.search.semantic=false", "assistant.sources.refresh-seconds=0",
        "assistant.sources.allow-private-addresses=true", "assistant.sources.allow-http=true",
        "assistant.sources.timeout-seconds=5",
        "assistant.sources.dir=target/git-traps/sources",
        ServiceTest.UNLIMITED_ADDRESS_RATE, ServiceTest.UNLIMITED_ADDRESS_STREAMS})
class GitTrapsTest extends GitSyncTest {

    private static final CapturedLogs LOGS = CapturedLogs.capture();
    private static final Path HOME = Path.of("target/git-traps").toAbsolutePath();
    private static final List<String> SINK = new CopyOnWriteArrayList<>();
    private static final HttpServer TRAPS = GitTenants.setUp(() -> {
        Files.createDirectories(HOME);
        HttpServer traps = traps();
        Files.writeString(HOME.resolve("git-credentials"), "alice:s3cret-token\n");
        GitTenants.write(HOME, """
                - id: redirected
                  docs: {git: "http://127.0.0.1:%d/redirect/docs.git", credentials: ./git-credentials}
                - id: banner
                  docs: {git: "http://127.0.0.1:%d/banner/docs.git", credentials: ./git-credentials}
                """.formatted(traps.getAddress().getPort(), traps.getAddress().getPort()));
        return traps;
    });

    @AfterAll
    void stopServer() {
        TRAPS.stop(0);
    }

    @Override
    protected boolean awaitsReadiness() {
        return false; // neither domain ever gets an index
    }

    /**
     * A Git host gone bad: {@code /redirect/…} answers 302 to the same path under {@code /sink/} on another host name
     * ({@code localhost}), where every request is recorded (with its {@code Authorization}) and asked for credentials;
     * {@code /banner/…} answers 200 with an internal service's banner.
     */
    private static HttpServer traps() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                URI uri = exchange.getRequestURI(); // absolute (http://host:port/…) from a client sent to an address
                String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
                if (path.startsWith("/redirect/")) {
                    exchange.getResponseHeaders().add("Location", "http://localhost:"
                            + server.getAddress().getPort() + path.replaceFirst("^/redirect/", "/sink/"));
                    exchange.sendResponseHeaders(302, -1);
                } else if (path.startsWith("/sink/")) {
                    SINK.add(path + " " + exchange.getRequestHeaders().getFirst("Authorization"));
                    exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"sink\"");
                    exchange.sendResponseHeaders(401, -1);
                } else {
                    byte[] banner = "BANNER-4711 internal admin console\n".getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("Content-Type", "text/plain");
                    exchange.sendResponseHeaders(200, banner.length);
                    exchange.getResponseBody().write(banner);
                }
            }
        });
        server.start();
        return server;
    }

    @Test
    void aGitHostsRedirectGetsNoRequestNoCredentialAndItsTextStaysOut() throws Exception {
        JsonNode redirected = update("redirected", ADMIN_KEY);
        assertTrue(SINK.stream().noneMatch(request -> request.contains("Basic")),
                "no credential reached the other host: " + SINK);
        assertEquals(List.of(), SINK, "the other host was never asked");
        assertEquals("failure", redirected.get("status").asText(), redirected.toString());
        assertTrue(redirected.get("summary").asText().contains("a redirect to another host was refused"),
                redirected.toString());
        JsonNode banner = update("banner", ADMIN_KEY);
        assertEquals("failure", banner.get("status").asText(), banner.toString());
        assertTrue(banner.get("summary").asText().startsWith("sync failed ("), banner.toString());
        assertFalse(banner.get("summary").asText().contains("BANNER"), "the remote's text is not echoed: " + banner);
        assertFalse(LOGS.lines().stream().anyMatch(line -> line.contains("s3cret-token")), "no credential logged");
    }
}
