package dev.docsassistant;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A domain served from a Git repository over SSH, from a real sshd on loopback ({@link SshGitServer}) that lets in
 * one deploy key: the key and known_hosts files the tenants file names are read at each sync, a wrong key or an
 * unknown or changed host key fails the sync with the last good index kept, every session is closed after its sync,
 * and no key material reaches a log line or a status. The known_hosts file lists only the server's ECDSA key while it
 * also has an ed25519 one, as a file with one line per host often does.
 */
@EnabledIf(value = "dev.docsassistant.SshGitServer#installed",
        disabledReason = "sshd is not installed (apt-get install openssh-server; .ci/run does): SSH tests skipped")
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/git-ssh-source/tenants.yaml",
        "assistant.search.semantic=false", "assistant.sources.refresh-seconds=0",
        "assistant.sources.timeout-seconds=5", "assistant.sources.dir=target/git-ssh-source/sources",
        "assistant.sources.allow-private-addresses=true",
        ServiceTest.UNLIMITED_ADDRESS_RATE, ServiceTest.UNLIMITED_ADDRESS_STREAMS})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GitSshSourceTest extends GitSyncTest {

    private static final Path HOME = Path.of("target/git-ssh-source").toAbsolutePath();
    private static final Path WORK = HOME.resolve("work");
    private static final Path KEYS = HOME.resolve("keys");
    private static final Path KEY = KEYS.resolve("deploy-key");
    private static final Path KNOWN_HOSTS = KEYS.resolve("known_hosts");
    /** What a key file held that JSch could not read: it is quoted nowhere either. */
    private static final String NOT_A_KEY = "bm90IGEga2V5IGF0IGFsbCwgYnV0IGEgc2VjcmV0IGFsbCB0aGUgc2FtZQ";
    private static final CapturedLogs LOGS = CapturedLogs.capture();
    private static final SshGitServer SERVER = GitTenants.setUp(() -> {
        createRepositories(HOME);
        copy(Path.of("src/test/resources/fixture-docs"), WORK.resolve("docs"));
        push(HOME);
        SshGitServer server = new SshGitServer(HOME.resolve("sshd"));
        SshGitServer.keygen(KEYS.resolve("first"), "ed25519", "");
        server.authorize(KEYS.resolve("first"));
        Files.copy(KEYS.resolve("first"), KEY);
        Files.writeString(KNOWN_HOSTS, server.knownHostsLine("ecdsa"));
        GitTenants.write(HOME, """
                - id: sshdocs
                  docs: {git: "%s", ref: main, path: docs, sshKey: ./keys/deploy-key,
                         knownHosts: ./keys/known_hosts}
                """.formatted(server.url(HOME.resolve("repos/docs.git"))));
        return server;
    });

    @AfterAll
    void stopServer() throws InterruptedException {
        SERVER.close();
    }

    @Test
    @Order(1)
    void aDomainIsServedOverSshAndAnswered() throws Exception {
        assertEquals("/guides/install", searchedPaths("sshdocs", "Install the CLI with npm").get(0));
        String answer = ask("sshdocs", ACME_KEY, question("How do I install the CLI?")).body();
        assertTrue(answer.contains("/guides/install"), "the answer cites the page fetched over SSH: " + answer);
    }

    @Test
    @Order(2)
    void aPushedCommitIsPickedUpByTheTrigger() throws Exception {
        pushQuokkaPage(HOME);
        assertTrue(searchedPaths("sshdocs", "quokka smile").isEmpty());
        JsonNode status = update("sshdocs", ADMIN_KEY);
        assertEquals("success", status.get("status").asText(), status.toString());
        assertEquals(List.of("/guides/quokka"), JSON.convertValue(status.get("filesChanged").get("added"),
                List.class));
        assertEquals(List.of("/guides/quokka"), searchedPaths("sshdocs", "quokka smile"));
    }

    @Test
    @Order(3)
    void aWrongKeyFailsVisiblyKeepsTheLastGoodIndexAndARotatedKeyAppliesAtTheNextSync() throws Exception {
        Path stranger = KEYS.resolve("stranger");
        SshGitServer.keygen(stranger, "ed25519", "");
        Files.copy(stranger, KEY, StandardCopyOption.REPLACE_EXISTING);
        JsonNode wrongKey = update("sshdocs", ADMIN_KEY);
        assertEquals("failure", wrongKey.get("status").asText(), wrongKey.toString());
        assertTrue(wrongKey.get("summary").asText().contains("authentication failed"), wrongKey.toString());
        assertEquals(List.of("/guides/quokka"), searchedPaths("sshdocs", "quokka smile"), "the last good index");

        Files.writeString(KEY, "-----BEGIN OPENSSH PRIVATE KEY-----\n" + NOT_A_KEY
                + "\n-----END OPENSSH PRIVATE KEY-----\n");
        JsonNode garbage = update("sshdocs", ADMIN_KEY);
        assertEquals("failure", garbage.get("status").asText());
        assertTrue(garbage.get("summary").asText().contains("is not a private key"), garbage.toString());

        Path locked = KEYS.resolve("locked");
        SshGitServer.keygen(locked, "ed25519", "a passphrase");
        SERVER.authorize(KEYS.resolve("first"), locked);
        Files.copy(locked, KEY, StandardCopyOption.REPLACE_EXISTING);
        JsonNode encrypted = update("sshdocs", ADMIN_KEY);
        assertEquals("failure", encrypted.get("status").asText());
        assertTrue(encrypted.get("summary").asText().contains("is encrypted with a passphrase"), encrypted.toString());

        Path rotated = KEYS.resolve("rotated");
        SshGitServer.keygen(rotated, "ecdsa", "");
        SERVER.authorize(rotated); // the first deploy key is revoked
        Files.copy(rotated, KEY, StandardCopyOption.REPLACE_EXISTING);
        JsonNode afterRotation = update("sshdocs", ADMIN_KEY);
        assertEquals("success", afterRotation.get("status").asText(), afterRotation.toString());
        assertEquals("unchanged", afterRotation.get("summary").asText());
    }

    @Test
    @Order(4)
    void anUnknownOrChangedHostKeyIsRefused() throws Exception {
        String trusted = Files.readString(KNOWN_HOSTS);
        Files.writeString(KNOWN_HOSTS, "");
        JsonNode unknown = update("sshdocs", ADMIN_KEY);
        Files.writeString(KNOWN_HOSTS, SERVER.impostorKnownHostsLine());
        JsonNode changed = update("sshdocs", ADMIN_KEY);
        Files.writeString(KNOWN_HOSTS, trusted);
        for (JsonNode refused : List.of(unknown, changed)) {
            assertEquals("failure", refused.get("status").asText(), refused.toString());
            assertTrue(refused.get("summary").asText().contains("is unknown or changed: it is not in knownHosts "
                    + KNOWN_HOSTS), refused.toString());
        }
        assertEquals(List.of("/guides/quokka"), searchedPaths("sshdocs", "quokka smile"), "the last good index");
        assertTrue(LOGS.lines().stream().anyMatch(line -> line.contains("Cannot index domain 'sshdocs'")
                && line.contains("host key")), "a refused host key is logged");
        assertEquals("success", update("sshdocs", ADMIN_KEY).get("status").asText());
    }

    @Test
    @Order(5)
    void everySshSessionIsClosedAfterItsSync() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (sessionThreads() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20); // a disconnected session's thread ends on its own, a moment later
        }
        assertEquals(0, sessionThreads(), "every sync above has ended, successful or not");
    }

    /** JSch's threads reading an open session with the test's server. */
    private static long sessionThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("Connect thread 127.0.0.1")).count();
    }

    @Test
    @Order(6)
    void noKeyMaterialReachesALogLineOrAStatus() throws Exception {
        List<String> secretLines = new ArrayList<>();
        for (String key : List.of("first", "stranger", "locked", "rotated")) {
            Files.readAllLines(KEYS.resolve(key)).stream().filter(line -> !line.startsWith("-----"))
                    .forEach(secretLines::add);
        }
        secretLines.add(NOT_A_KEY);
        assertTrue(secretLines.size() > 8, "the keys were read: " + secretLines.size());
        assertFalse(statusesRead.isEmpty());
        assertTrue(LOGS.lines().stream().anyMatch(line -> line.contains("authentication failed")), "the failures were logged");
        for (String secret : secretLines) {
            assertTrue(LOGS.lines().stream().noneMatch(line -> line.contains(secret)), "a key line in the log");
            assertTrue(statusesRead.stream().noneMatch(body -> body.contains(secret)), "a key line in a status");
        }
    }
}
