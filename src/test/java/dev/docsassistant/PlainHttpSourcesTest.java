package dev.docsassistant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Git and site sources are https:// (or SSH for Git) as the guide says, unless the operator allows plain HTTP
 * ({@code assistant.sources.allow-http}, false here; loopback is allowed, so only the scheme is refused): a plain
 * {@code http://} site or repository fails its sync naming the property, and its server is never asked.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/plain-http/tenants.yaml",
        "assistant.search.semantic=false", "assistant.sources.refresh-seconds=0",
        "assistant.sources.allow-private-addresses=true", "assistant.sources.dir=target/plain-http/sources",
        ServiceTest.UNLIMITED_ADDRESS_RATE})
class PlainHttpSourcesTest extends GitSyncTest {

    private static final List<String> ASKED = new CopyOnWriteArrayList<>();
    private static final HttpServer SERVER;

    static {
        try {
            SERVER = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            SERVER.createContext("/", exchange -> {
                try (exchange) {
                    ASKED.add(exchange.getRequestURI().toString());
                    exchange.sendResponseHeaders(404, -1);
                }
            });
            SERVER.start();
            String url = "http://127.0.0.1:" + SERVER.getAddress().getPort();
            TenantsReloadTest.write(Path.of("target/plain-http/tenants.yaml"), """
                    organizations:
                      - id: acme
                        apiKeys: [%s]
                        adminKeys: [%s]
                        domains:
                          - id: site
                            docs: {site: "%s/"}
                          - id: git
                            docs: {git: "%s/docs.git"}
                    """.formatted(ACME_KEY, ADMIN_KEY, url, url));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    void stopServer() {
        SERVER.stop(0);
    }

    @Override
    protected boolean awaitsReadiness() {
        return false; // neither domain may be read
    }

    @Test
    void plainHttpSourcesAreRefusedUnlessAllowed() throws Exception {
        for (String domain : List.of("site", "git")) {
            JsonNode status = update(domain, ADMIN_KEY);
            assertEquals("failure", status.get("status").asText(), status.toString());
            assertTrue(status.get("summary").asText().contains("is a plain http:// URL")
                    && status.get("summary").asText().contains("assistant.sources.allow-http"), status.toString());
        }
        assertEquals(List.of(), ASKED, "no plain HTTP request was sent");
    }
}
