package dev.docsassistant;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a docs author or a docs host controls stays inside its own domain, against the live service: a docs folder
 * whose pages and snippets are links to a secret outside it serves no byte of the secret (page, search, answer), and
 * a site whose every answer trickles a byte at a time ends its own sync at the deadline while another organization's
 * trigger completes at once, however often the trickling domain is triggered.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/source-bounds/tenants.yaml",
        "assistant.search.semantic=false", "assistant.sources.refresh-seconds=0",
        "assistant.sources.allow-private-addresses=true", "assistant.sources.allow-http=true",
        "assistant.sources.request-delay-ms=0",
        "assistant.sources.timeout-seconds=2", "assistant.sources.dir=target/source-bounds/sources",
        ServiceTest.UNLIMITED_ADDRESS_RATE, ServiceTest.UNLIMITED_ADDRESS_STREAMS})
class SourceBoundsTest extends GitSyncTest {

    private static final Path HOME = Path.of("target/source-bounds").toAbsolutePath();
    private static final String GLOBEX_ADMIN_KEY = "mint_adm_globex_secret_0123456789";
    private static final String SECRET = "platypus hunter2 wombat";
    private static final Trickle TRICKLE = GitTenants.setUp(() -> {
        createRepositories(HOME);
        Path docs = HOME.resolve("linked");
        copy(Path.of("src/test/resources/fixture-docs"), docs);
        Files.createDirectories(HOME.resolve("private"));
        Path secret = HOME.resolve("private/secret.mdx");
        Files.writeString(secret, "---\ntitle: Secret\n---\n\nThe " + SECRET + " password.\n");
        Files.createSymbolicLink(docs.resolve("guides/leak.mdx"), secret);
        Files.createSymbolicLink(docs.resolve("snippets/leak.mdx"), secret);
        Files.writeString(docs.resolve("guides/uses-leak.mdx"), """
                ---
                title: Uses a leak
                ---
                import Leak from "/snippets/leak.mdx";

                The echidna page quotes a snippet: <Leak />
                """);
        Files.writeString(docs.resolve("guides/evil.mdx"), """
                ---
                title: "Wombat <img src=x onerror=alert(1)> [click](javascript:alert(1))"
                ---

                The wombat burrow is forty meters deep.
                """);
        Path navigation = docs.resolve("docs.json");
        Files.writeString(navigation, Files.readString(navigation).replace("\"guides/quotas\"]",
                "\"guides/quotas\", \"guides/leak\", \"guides/uses-leak\", \"guides/evil\"]"));
        Trickle trickle = new Trickle();
        GitTenants.write(HOME, """
                - id: linked
                  docs: %s
                - id: trickle
                  docs: {site: "http://127.0.0.1:%d/"}
                """.formatted(docs, trickle.port()), """
                - id: globex
                  apiKeys: [%s]
                  adminKeys: [%s]
                  domains:
                    - id: globex
                      docs: classpath:fixture-docs
                """.formatted(GLOBEX_KEY, GLOBEX_ADMIN_KEY));
        return trickle;
    });

    @AfterAll
    void stopServer() throws IOException {
        TRICKLE.close();
    }

    @Override
    protected boolean awaitsReadiness() {
        return false; // the trickling domain never gets an index
    }

    @Test
    void noByteOfALinkedFilesTargetLeaves() throws Exception {
        awaitSearchable("linked");
        assertEquals(404, send(post("/v1/page/linked", ACME_KEY, "{\"path\": \"/guides/leak\"}")).statusCode(),
                "a page that is a link out of the folder is not a page");
        HttpResponse<String> page = send(post("/v1/page/linked", ACME_KEY, "{\"path\": \"/guides/uses-leak\"}"));
        assertEquals(200, page.statusCode(), page.body());
        assertTrue(page.body().contains("echidna"), page.body());
        assertFalse(page.body().contains("hunter2"), "a snippet that is a link out of the folder is not read");
        for (String query : new String[] {SECRET, "platypus password", "echidna snippet"}) {
            HttpResponse<String> search = send(post("/v1/search/linked", ACME_KEY,
                    JSON.createObjectNode().put("query", query).toString()));
            assertEquals(200, search.statusCode());
            assertFalse(search.body().contains("hunter2"), search.body());
        }
        String answer = ask("linked", ACME_KEY, question("What is the platypus password?")).body();
        assertFalse(answer.contains("hunter2"), answer);
    }

    @Test
    void aPageTitleIsQuotedAsTextNotMarkup() throws Exception {
        awaitSearchable("linked");
        String answer = parts(ask("linked", ACME_KEY, question("How deep is the wombat burrow?")).body()).stream()
                .filter(part -> part.code().equals("0")).map(part -> part.value().asText())
                .collect(Collectors.joining());
        assertTrue(answer.contains("Quoted from [Wombat \\<img src=x onerror=alert\\(1\\)\\> "
                + "\\[click\\]\\(javascript:alert\\(1\\)\\)](/guides/evil)"), "the title is text: " + answer);
    }

    @Test
    void aTricklingSiteHoldsNoOtherDomainsSync() throws Exception {
        awaitSearchable("linked");
        long started = System.nanoTime();
        for (int i = 0; i < 4; i++) {
            assertEquals(202, trigger("trickle", ADMIN_KEY).statusCode());
        }
        JsonNode trickle = update("trickle", ADMIN_KEY);
        JsonNode other = update("globex", GLOBEX_ADMIN_KEY);
        assertEquals("success", other.get("status").asText(), other.toString());
        JsonNode same = update("linked", ADMIN_KEY);
        assertEquals("success", same.get("status").asText(), "the same organization's other domain: " + same);
        assertEquals("failure", trickle.get("status").asText(), trickle.toString());
        assertTrue(trickle.get("summary").asText().contains("not read in full"), trickle.toString());
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(25).toNanos(),
                "each trickling sync ended at its timeout");
        assertTrue(TRICKLE.connections.get() >= 2, "the site was asked again for each sync");
    }

    private void awaitSearchable(String domain) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (send(post("/v1/search/" + domain, ACME_KEY, "{\"query\": \"install\"}")).statusCode() != 200) {
            assertTrue(System.nanoTime() < deadline, domain + " was not indexed");
            Thread.sleep(100);
        }
    }

    /** A site whose every answer is a 200 that sends one byte of its body every 200 ms, never finishing. */
    private static final class Trickle implements AutoCloseable {

        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final AtomicInteger connections = new AtomicInteger();

        Trickle() throws IOException {
            Thread accepter = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        connections.incrementAndGet();
                        Thread writer = new Thread(() -> trickle(socket));
                        writer.setDaemon(true);
                        writer.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            accepter.setDaemon(true);
            accepter.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private static void trickle(Socket socket) {
            try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
                byte[] buffer = new byte[8192];
                in.read(buffer); // the request's headers
                out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                while (true) {
                    out.write('a');
                    out.flush();
                    Thread.sleep(200);
                }
            } catch (IOException | InterruptedException e) {
                // the client left
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
