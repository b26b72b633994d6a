package dev.docsassistant;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DNS rebinding against a site source, with the rule on (no {@code allow-private-addresses}): the service runs in its
 * own JVM whose every name lookup reads a hosts file ({@code -Djdk.net.hosts.file}, no cache) that is a named pipe
 * this test writes at each lookup. Once armed, the site's name resolves to a public address (192.0.2.10) at the next
 * lookup and to loopback, where a docs site listens, at every later one: exactly a rebinding DNS server with a TTL of
 * zero. A service that resolves to check and resolves again to connect passes the check and then asks the loopback
 * site (it did: robots.txt was served to it); one that connects only to the addresses it checked never reaches it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DnsRebindingTest {

    private static final String ACME_KEY = ServiceTest.ACME_KEY;
    private static final String ACME_ADMIN = GitSyncTest.ADMIN_KEY;
    private static final String NAME = "docs.rebind.test";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Path home = Path.of("target", "dns-rebinding").toAbsolutePath();
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final AtomicBoolean armed = new AtomicBoolean();
    private HttpServer site;
    private Process service;
    private int port;

    @BeforeAll
    void start() throws Exception {
        Files.createDirectories(home);
        site = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        site.createContext("/", exchange -> {
            try (exchange) {
                asked.add(exchange.getRequestURI().getPath());
                byte[] body = "# Docs\n\n- [Inside](/inside)\n".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        site.start();
        Path hosts = home.resolve("hosts");
        Files.deleteIfExists(hosts);
        assertEquals(0, new ProcessBuilder("mkfifo", hosts.toString()).start().waitFor(), "mkfifo");
        String self = InetAddress.getLocalHost().getHostName();
        Thread answers = new Thread(() -> {
            while (true) {
                try (OutputStream out = new FileOutputStream(hosts.toFile())) { // one lookup opens it once
                    String rebound = armed.getAndSet(false) ? "192.0.2.10" : "127.0.0.1";
                    out.write(("127.0.0.1 localhost " + self + "\n" + rebound + " " + NAME + "\n")
                            .getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    return;
                }
                try {
                    Thread.sleep(100); // the reader reaches the end of this answer before the next one is written
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "rebinding-dns");
        answers.setDaemon(true);
        answers.start();
        Path tenants = home.resolve("tenants.yaml");
        Files.writeString(tenants, """
                organizations: [{id: acme, apiKeys: [%s], adminKeys: [%s], domains: [
                  {id: rebound, docs: {site: "http://%s:%d/"}}, {id: fixture, docs: classpath:fixture-docs}]}]
                """.formatted(ACME_KEY, ACME_ADMIN, NAME, site.getAddress().getPort()));
        port = RedisServer.freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Djdk.net.hosts.file=" + hosts,
                "-Dsun.net.inetaddr.ttl=0", "-Dsun.net.inetaddr.negative.ttl=0",
                "-cp", System.getProperty("java.class.path"),
                "-Dcamel.server.port=" + port,
                "-Dcamel.management.port=" + RedisServer.freePort(),
                "-Dassistant.tenants-file=" + tenants,
                "-Dassistant.sources.dir=" + home.resolve("sources"),
                "-Dassistant.sources.allow-http=true",
                "-Dassistant.sources.timeout-seconds=3",
                "-Dassistant.sources.request-delay-ms=0",
                "-Dassistant.search.semantic=false",
                "org.apache.camel.main.Main");
        builder.environment().remove("CAMEL_MANAGEMENT_PORT"); // the suite's random port, which would win over -D
        service = builder.redirectErrorStream(true).redirectOutput(home.resolve("service.log").toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (search("fixture") != 200) {
            assertTrue(service.isAlive() && System.nanoTime() < deadline, "the service did not serve; see "
                    + home.resolve("service.log"));
            Thread.sleep(200);
        }
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (service != null) {
            service.destroy();
            service.waitFor();
        }
        if (site != null) {
            site.stop(0);
        }
    }

    @Test
    void theAddressConnectedToIsTheOneChecked() throws Exception {
        armed.set(true); // the next lookup says public, every later one loopback
        JsonNode status = update();
        assertEquals("failure", status.get("status").asText(), status.toString());
        assertEquals(List.of(), asked, "the loopback site was never asked");
        assertEquals(200, search("fixture"), "the other domain serves");
    }

    /** The search's status code, or -1 while the service does not listen yet. */
    private int search(String domain) throws InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/search/" + domain))
                    .timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + ACME_KEY)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"install\"}")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        }
    }

    private JsonNode update() throws Exception {
        HttpResponse<String> accepted = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/v1/project/update/rebound")).header("Authorization", "Bearer " + ACME_ADMIN)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(202, accepted.statusCode(), accepted.body());
        URI status = URI.create("http://127.0.0.1:" + port + "/v1/project/update-status/"
                + JSON.readTree(accepted.body()).get("statusId").asText());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            JsonNode state = JSON.readTree(http.send(HttpRequest.newBuilder(status)
                    .header("Authorization", "Bearer " + ACME_ADMIN).build(), HttpResponse.BodyHandlers.ofString())
                    .body());
            if (state.path("status").asText().equals("success") || state.path("status").asText().equals("failure")) {
                return state;
            }
            assertTrue(System.nanoTime() < deadline, "the update did not end: " + state);
            Thread.sleep(100);
        }
    }
}
