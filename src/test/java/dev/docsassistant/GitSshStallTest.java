package dev.docsassistant;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Git-over-SSH servers that take the connection and then give nothing, against the live service: one that never says
 * a word (no SSH banner), one whose Git never answers once the session is up (sshd's forced command), and one that
 * trickles a ref advertisement a byte a second, never idle long enough for a read's timeout. Each sync fails with
 * "sync failed" within the sync's deadline, none of the remote's bytes in its status, and meanwhile another domain's
 * sync over SSH picks up a pushed commit and its searches answer.
 */
@EnabledIf(value = "dev.docsassistant.SshGitServer#installed",
        disabledReason = "sshd is not installed (apt-get install openssh-server; .ci/run does): SSH tests skipped")
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/git-ssh-stall/tenants.yaml",
        "assistant.search.semantic=false", "assistant.sources.refresh-seconds=0",
        "assistant.sources.timeout-seconds=3", "assistant.sources.sync-timeout-seconds=10",
        "assistant.sources.dir=target/git-ssh-stall/sources", "assistant.sources.allow-private-addresses=true",
        ServiceTest.UNLIMITED_ADDRESS_RATE, ServiceTest.UNLIMITED_ADDRESS_STREAMS})
class GitSshStallTest extends GitSyncTest {

    private static final Path HOME = Path.of("target/git-ssh-stall").toAbsolutePath();
    private static final Path KEYS = HOME.resolve("keys");
    private static final int SYNC_TIMEOUT_SECONDS = 10;
    private static final List<Socket> ACCEPTED = new CopyOnWriteArrayList<>();
    /** A port that takes connections and never says a byte. */
    private static final ServerSocket SILENT = GitTenants.setUp(() -> {
        ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accepter = new Thread(() -> {
            while (!silent.isClosed()) {
                try {
                    ACCEPTED.add(silent.accept()); // and never a byte back
                } catch (IOException closed) {
                    return;
                }
            }
        });
        accepter.setDaemon(true);
        accepter.start();
        return silent;
    });
    private static final SshGitServer SERVER = GitTenants.setUp(() -> {
        createRepositories(HOME);
        copy(Path.of("src/test/resources/fixture-docs"), HOME.resolve("work/docs"));
        push(HOME);
        SshGitServer server = new SshGitServer(HOME.resolve("sshd"));
        for (String key : List.of("deploy", "stalled", "trickled")) {
            SshGitServer.keygen(KEYS.resolve(key), "ed25519", "");
        }
        server.authorize(KEYS.resolve("deploy"));
        server.authorizeForced(KEYS.resolve("stalled"), "exec cat >/dev/null");
        server.authorizeForced(KEYS.resolve("trickled"),
                "printf fff0; while true; do printf TRICKLE; sleep 1; done");
        Files.writeString(KEYS.resolve("known_hosts"), server.knownHostsLine("ed25519"));
        String url = server.url(HOME.resolve("repos/docs.git"));
        GitTenants.write(HOME, """
                - id: sshdocs
                  docs: {git: "%s", path: docs, sshKey: ./keys/deploy, knownHosts: ./keys/known_hosts}
                - id: stalled
                  docs: {git: "%s", path: docs, sshKey: ./keys/stalled, knownHosts: ./keys/known_hosts}
                - id: trickled
                  docs: {git: "%s", path: docs, sshKey: ./keys/trickled, knownHosts: ./keys/known_hosts}
                - id: silent
                  docs: {git: "ssh://git@127.0.0.1:%d/docs.git", path: docs, sshKey: ./keys/deploy,
                         knownHosts: ./keys/known_hosts}
                """.formatted(url, url, url, SILENT.getLocalPort()));
        return server;
    });

    @AfterAll
    void stopServers() throws Exception {
        SERVER.close();
        SILENT.close();
        for (Socket socket : ACCEPTED) {
            socket.close();
        }
    }

    @Override
    protected boolean awaitsReadiness() {
        return false; // three of the domains never get an index
    }

    @Test
    void stalledAndTricklingServersFailWithinTheDeadlineAndTheOtherDomainGoesOn() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!searchable()) {
            assertTrue(System.nanoTime() < deadline, "sshdocs was never indexed");
            Thread.sleep(100);
        }
        long started = System.nanoTime();
        Map<String, String> statusIds = new LinkedHashMap<>();
        for (String domain : List.of("stalled", "trickled", "silent")) {
            HttpResponse<String> accepted = trigger(domain, ADMIN_KEY);
            assertEquals(202, accepted.statusCode(), accepted.body());
            statusIds.put(domain, JSON.readTree(accepted.body()).get("statusId").asText());
        }
        pushQuokkaPage(HOME);
        JsonNode other = update("sshdocs", ADMIN_KEY);
        assertEquals("success", other.get("status").asText(), other.toString());
        assertEquals(List.of("/guides/quokka"), searchedPaths("sshdocs", "quokka smile"));
        for (Map.Entry<String, String> pending : statusIds.entrySet()) {
            JsonNode status = awaitEnd(pending.getValue());
            assertEquals("failure", status.get("status").asText(), pending.getKey() + ": " + status);
            String summary = status.get("summary").asText();
            assertTrue(summary.startsWith("sync failed ("), pending.getKey() + ": " + summary);
            assertFalse(summary.contains("TRICKLE"), "the remote's bytes are not echoed: " + summary);
        }
        // a sync already running when triggered (the one at the start) ends first: two deadlines at most, and a read's
        long took = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        assertTrue(took <= 2 * SYNC_TIMEOUT_SECONDS + 3 + 2, "the syncs ended after " + took + " s");
        assertTrue(JSON.readTree(status(statusIds.get("trickled"), ADMIN_KEY).body()).get("summary").asText()
                .endsWith("the sync took longer than 10 s (assistant.sources.sync-timeout-seconds)"));
        assertEquals(List.of("/guides/quokka"), searchedPaths("sshdocs", "quokka smile"));
        long closing = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (sessionThreads() > 0 && System.nanoTime() < closing) {
            Thread.sleep(20); // a disconnected session's thread ends on its own, a moment later
        }
        assertEquals(0, sessionThreads(), "every SSH session of the failed syncs is closed");
    }

    /** JSch's threads reading an open session with the test's SSH server. */
    private static long sessionThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("Connect thread 127.0.0.1")).count();
    }

    private boolean searchable() throws Exception {
        return send(post("/v1/search/sshdocs", ACME_KEY, "{\"query\": \"Install the CLI\"}")).statusCode() == 200;
    }

    private JsonNode awaitEnd(String statusId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            JsonNode status = JSON.readTree(status(statusId, ADMIN_KEY).body());
            String state = status.get("status").asText();
            if (state.equals("success") || state.equals("failure")) {
                return status;
            }
            assertTrue(System.nanoTime() < deadline, "the sync did not end: " + status);
            Thread.sleep(100);
        }
    }
}
