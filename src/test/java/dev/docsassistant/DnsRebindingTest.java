package dev.docsassistant;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
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
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DNS rebinding against a site source and a Git source over HTTPS, plain HTTP and SSH, with the rule on (no {@code allow-private-addresses}): the service runs in its
 * own JVM whose every name lookup reads a hosts file ({@code -Djdk.net.hosts.file}, no cache) that is a named pipe
 * this test writes at each lookup. Once armed, the name resolves to a public address (192.0.2.10) at the next lookups
 * and to loopback, where a docs site and a Git server (TLS, with a certificate for the name that the service trusts)
 * listen (and an sshd that knows the service's key), at every later one: exactly a rebinding DNS server with a TTL of zero. A service that resolves to check and
 * resolves again to connect passes the check and then asks the loopback server (it did: the site was asked for
 * robots.txt, the Git server for info/refs); one that connects only to the addresses it checked never reaches it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DnsRebindingTest {

    private static final String ACME_KEY = ServiceTest.ACME_KEY;
    private static final String ACME_ADMIN = GitSyncTest.ADMIN_KEY;
    private static final String NAME = "docs.rebind.test";
    private static final String PASSWORD = "rebinding";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Path home = Path.of("target", "dns-rebinding").toAbsolutePath();
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final AtomicInteger publicAnswers = new AtomicInteger();
    private HttpServer site;
    private HttpsServer git;
    private SshGitServer sshd;
    private Process service;
    private int port;

    @BeforeAll
    void start() throws Exception {
        Files.createDirectories(home);
        HttpHandler inside = exchange -> {
            try (exchange) {
                asked.add(exchange.getRequestURI().getPath());
                byte[] body = "# Docs\n\n- [Inside](/inside)\n".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
        };
        site = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        site.createContext("/", inside);
        site.start();
        git = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        git.setHttpsConfigurator(new HttpsConfigurator(tls()));
        git.createContext("/", inside);
        git.start();
        Path hosts = home.resolve("hosts");
        Files.deleteIfExists(hosts);
        assertEquals(0, new ProcessBuilder("mkfifo", hosts.toString()).start().waitFor(), "mkfifo");
        String self = InetAddress.getLocalHost().getHostName();
        Thread answers = new Thread(() -> {
            while (true) {
                try (OutputStream out = new FileOutputStream(hosts.toFile())) { // one lookup opens it once
                    String rebound = publicAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? "192.0.2.10"
                            : "127.0.0.1";
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
        String sshDomain = "";
        if (SshGitServer.installed()) { // a loopback sshd that would let the service in under the name
            sshd = new SshGitServer(home.resolve("sshd"));
            SshGitServer.keygen(home.resolve("key"), "ed25519", "");
            sshd.authorize(home.resolve("key"));
            Files.writeString(home.resolve("known_hosts"), sshd.knownHostsLine("ed25519")
                    .replace("[127.0.0.1]", "[" + NAME + "]"));
            sshDomain = ", {id: reboundssh, docs: {git: \"%s\", sshKey: %s, knownHosts: %s}}".formatted(
                    sshd.url(Path.of("/docs.git")).replace("@127.0.0.1:", "@" + NAME + ":"), home.resolve("key"),
                    home.resolve("known_hosts"));
        }
        Path tenants = home.resolve("tenants.yaml");
        Files.writeString(tenants, """
                organizations: [{id: acme, apiKeys: [%s], adminKeys: [%s], domains: [
                  {id: rebound, docs: {site: "http://%s:%d/"}}, {id: fixture, docs: classpath:fixture-docs},
                  {id: reboundgit, docs: {git: "https://%s:%d/docs.git"}},
                  {id: reboundhttp, docs: {git: "http://%s:%d/docs.git"}}%s]}]
                """.formatted(ACME_KEY, ACME_ADMIN, NAME, site.getAddress().getPort(), NAME,
                git.getAddress().getPort(), NAME, site.getAddress().getPort(), sshDomain));
        port = RedisServer.freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Djdk.net.hosts.file=" + hosts,
                "-Djavax.net.ssl.trustStore=" + home.resolve("trust.p12"),
                "-Djavax.net.ssl.trustStorePassword=" + PASSWORD,
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
                "-Dassistant.ratelimit.ip-per-minute=6000", // this test polls update statuses from one address
                "-Dassistant.ratelimit.ip-burst=6000",
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
        if (git != null) {
            git.stop(0);
        }
        if (sshd != null) {
            sshd.close();
        }
    }

    @Test
    void theAddressConnectedToIsTheOneChecked() throws Exception {
        asked.clear();
        publicAnswers.set(1); // the next lookup says public, every later one loopback
        JsonNode status = update("rebound");
        assertEquals("failure", status.get("status").asText(), status.toString());
        assertEquals(List.of(), asked, "the loopback site was never asked");
        assertEquals(200, search("fixture"), "the other domain serves");
    }

    @Test
    void aGitRemoteOverHttpsConnectsOnlyWhereItWasChecked() throws Exception {
        assertNeverAsked("reboundgit", 2); // the two checks before JGit connects see public, its connection loopback
    }

    @Test
    void aGitRemoteOverPlainHttpConnectsOnlyWhereItWasChecked() throws Exception {
        assertNeverAsked("reboundhttp", 2); // the check before JGit and the one for its request see public
    }

    /**
     * The domain's sync fails, its name answering public for the next {@code publicLookups} lookups only, and no sync
     * asks the loopback server. A failed domain's sync is retried meanwhile (after 5 s, 10 s, …): a retry may take
     * the public answers instead of the trigger, and is then the sync they test.
     */
    private void assertNeverAsked(String domain, int publicLookups) throws Exception {
        asked.clear();
        publicAnswers.set(publicLookups);
        JsonNode status = update(domain);
        assertEquals("failure", status.get("status").asText(), status.toString());
        assertEquals(0, publicAnswers.get(), "the public answers were taken");
        assertEquals(List.of(), asked, "the loopback Git server was never asked");
        assertEquals(200, search("fixture"), "the other domain serves");
    }

    @Test
    @EnabledIf("dev.docsassistant.SshGitServer#installed")
    void aGitRemoteOverSshConnectsOnlyWhereItWasChecked() throws Exception {
        Path log = home.resolve("sshd/sshd.log");
        long logged = Files.size(log);
        publicAnswers.set(1); // the check before JGit sees public, the lookup for its connection loopback
        JsonNode status = update("reboundssh");
        assertEquals("failure", status.get("status").asText(), status.toString());
        assertTrue(status.get("summary").asText().endsWith("(assistant.sources.allow-private-addresses)"),
                status.toString());
        assertEquals(logged, Files.size(log), "the loopback sshd was never contacted: " + Files.readString(log));
        assertEquals(200, search("fixture"), "the other domain serves");
    }

    /**
     * The loopback Git server's TLS: a key and certificate for {@link #NAME} made by {@code keytool}, whose certificate
     * is also written alone into {@code trust.p12}, the service's trust store.
     */
    private SSLContext tls() throws Exception {
        Path keys = home.resolve("server.p12");
        Files.deleteIfExists(keys);
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process made = new ProcessBuilder(keytool, "-genkeypair", "-alias", "git", "-keyalg", "EC", "-groupname",
                "secp256r1", "-dname", "CN=" + NAME, "-ext", "SAN=dns:" + NAME, "-validity", "2", "-storetype",
                "PKCS12", "-keystore", keys.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(made.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, made.waitFor(), "keytool: " + output);
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keys)) {
            store.load(in, PASSWORD.toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("git", store.getCertificate("git"));
        try (OutputStream out = Files.newOutputStream(home.resolve("trust.p12"))) {
            trust.store(out, PASSWORD.toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(store, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);
        return context;
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

    private JsonNode update(String domain) throws Exception {
        HttpResponse<String> accepted = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/v1/project/update/" + domain)).header("Authorization", "Bearer " + ACME_ADMIN)
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
