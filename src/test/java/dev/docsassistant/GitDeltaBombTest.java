package dev.docsassistant;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Git delta bomb, fetched by the service in its own JVM with a heap smaller than what the bomb inflates to
 * ({@code -Xmx256m}, {@code -XX:+ExitOnOutOfMemoryError} as the image runs it): a commit holding a 200 MiB file of
 * one byte (200 KB in zlib) and a delta of it (9 KB) whose result is 200 MiB too, a 212 KB pack on the wire. JGit
 * applies no object size limit while it fetches unless told: it read the base and the delta's result into the heap,
 * and the JVM exited during the fetch. Then delta chains whose every object is within that bound
 * ({@link DeltaChainPack}): 60 links of 5 MiB each with a leaf (a 12 KB pack) ran the JVM out of heap as well, since
 * JGit holds each link's result until its last child is resolved; one chain of 1,000 links (a 60 KB pack) costs
 * 5 GiB of delta application and hashing. Here the process lives, each sync fails naming its bound, and the
 * organization's other domain keeps answering.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GitDeltaBombTest {

    private static final String ACME_KEY = ServiceTest.ACME_KEY;
    private static final String ACME_ADMIN = GitSyncTest.ADMIN_KEY;
    private static final long BOMB_BYTES = 200L << 20;
    /** Links of 5 MiB objects, each with a leaf: 60 × 5 MiB held at once while JGit resolves them. */
    private static final int CHAINED_DEPTH = 60;
    /** Links of one chain of 5 MiB objects: 500 MiB to build and hash, from a pack of 11 KB. */
    private static final int LINKED_DEPTH = 100;

    private final Path home = Path.of("target", "git-delta-bomb").toAbsolutePath();
    private final Path log = home.resolve("service.log");
    private GitHttpServer git;
    private OwnJvmService service;

    @BeforeAll
    void startService() throws Exception {
        GitSyncTest.createRepositories(home);
        Path work = home.resolve("work");
        GitSyncTest.copy(Path.of("src/test/resources/fixture-docs"), work.resolve("docs"));
        writeRepeated(work.resolve("docs/snippets/base.mdx"), BOMB_BYTES, "");
        writeRepeated(work.resolve("docs/snippets/copy.mdx"), BOMB_BYTES, "and one more line\n");
        GitHttpServer.git(work, "add", "-A");
        GitHttpServer.git(work, "commit", "-q", "-m", "bomb");
        GitHttpServer.git(work, "repack", "-a", "-d", "-f", "-q"); // copy.mdx becomes a delta of base.mdx
        GitHttpServer.git(work, "push", "-q", "-f", home.resolve("repos/docs.git").toString(), "main");
        Files.delete(work.resolve("docs/snippets/base.mdx"));
        Files.delete(work.resolve("docs/snippets/copy.mdx"));
        DeltaChainPack.write(home.resolve("repos/chained.git"), CHAINED_DEPTH, true);
        DeltaChainPack.write(home.resolve("repos/linked.git"), LINKED_DEPTH, false);
        git = new GitHttpServer(home.resolve("repos"), "alice", "s3cret");
        Files.writeString(home.resolve("credentials"), "alice:s3cret\n");
        Path tenants = GitTenants.write(home, """
                - id: bombed
                  docs: {git: "%s", ref: main, path: docs, credentials: ./credentials}
                - id: chained
                  docs: {git: "%s", ref: main, credentials: ./credentials}
                - id: linked
                  docs: {git: "%s", ref: main, credentials: ./credentials}
                - id: calm
                  docs: classpath:fixture-docs
                """.formatted(git.url("docs.git"), git.url("chained.git"), git.url("linked.git")));
        service = OwnJvmService.launch(Path.of(System.getProperty("java.home"), "bin", "java"),
                        List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"), log, null)
                .property("assistant.tenants-file", tenants.toString())
                .property("assistant.search.semantic", "false")
                .property("assistant.search.reload-seconds", "0")
                .property("assistant.sources.refresh-seconds", "0")
                .property("assistant.sources.allow-private-addresses", "true")
                .property("assistant.sources.allow-http", "true")
                .property("assistant.sources.dir", home.resolve("sources").toString())
                .property("assistant.ratelimit.ip-per-minute", "0") // this test polls update statuses from one address
                .start(120);
    }

    /**
     * A delta chain whose every object is within the per-object bound: the deltas each hold on to a base whose
     * result JGit keeps in memory until its last child is resolved, and it resolves the next link before the leaf.
     */
    @Test
    void aDeepDeltaChainFailsTheSyncWithinTheHeap() throws Exception {
        String summary = failedSync("chained");
        assertTrue(summary.contains("(assistant.sources.max-delta-bytes)"), summary);
        assertCalmAnswers();
    }

    /** One long chain, each link a few bytes producing 5 MiB: ended at the bound instead of after 500 MiB. */
    @Test
    void aLongDeltaChainEndsAtTheBound() throws Exception {
        long start = System.nanoTime();
        String summary = failedSync("linked");
        long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
        assertTrue(summary.contains("(assistant.sources.max-delta-bytes)"), summary + " after " + seconds + " s");
        assertTrue(seconds < 60, "ended after " + seconds + " s");
        assertCalmAnswers();
    }

    /** Triggers a sync of {@code domain}, which fails while the process lives: its status's summary. */
    private String failedSync(String domain) throws IOException, InterruptedException {
        JsonNode update = service.update(domain, ACME_ADMIN, Duration.ofSeconds(120));
        assertTrue(service.isAlive(), "the service is still running; see " + log);
        assertEquals("failure", update.get("status").asText(), update.toString());
        String summary = update.get("summary").asText();
        assertTrue(summary.startsWith("sync failed ("), summary);
        return summary;
    }

    private void assertCalmAnswers() throws IOException, InterruptedException {
        HttpResponse<String> other = service.post("/v1/search/calm", ACME_KEY, "{\"query\": \"Install the CLI\"}");
        assertEquals(200, other.statusCode(), other.body());
        assertTrue(other.body().contains("/guides/install"), other.body());
        assertFalse(Files.readString(log).contains("OutOfMemoryError"), "no OutOfMemoryError in " + log);
    }

    /** {@code bytes} of the letter a, then {@code tail}. */
    private static void writeRepeated(Path file, long bytes, String tail) throws IOException {
        byte[] chunk = new byte[1 << 20];
        Arrays.fill(chunk, (byte) 'a');
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            for (long written = 0; written < bytes; written += chunk.length) {
                out.write(chunk);
            }
            out.write(tail.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (service != null) {
            service.close();
        }
        if (git != null) {
            git.close();
        }
    }

    @Test
    void theProcessLivesTheSyncFailsAndTheOtherDomainAnswers() throws Exception {
        String summary = failedSync("bombed");
        assertTrue(summary.contains("(assistant.sources.max-file-bytes)"), summary);
        assertEquals(503, service.post("/v1/page/bombed", ACME_KEY, "{\"path\": \"/guides/install\"}").statusCode(),
                "the domain has no index: nothing of the bomb's commit is served");
        assertCalmAnswers();
        assertTrue(service.isAlive(), "the service is still running");
    }
}
