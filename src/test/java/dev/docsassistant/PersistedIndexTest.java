package dev.docsassistant;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * assistant.search.index-dir: the service restarted on the same docs opens its index from the folder and embeds
 * nothing; after a one-page edit it embeds that page alone; a corrupted index file is detected and rebuilt, and
 * every start answers as the first did. The bundled docs' index comes with the jar; a folder the service cannot
 * write to leaves the index in memory.
 */
class PersistedIndexTest {

    private static final String KEY = "mint_dsc_index_test";
    private static final String ADMIN_KEY = "mint_adm_index_test_0123456789";
    /** Found by meaning: not one of its words is on the page that answers it (/guides/redirects). */
    private static final String QUESTION = "visitors following stale bookmarks should reach relocated articles";
    private static final String ANSWER = "/guides/redirects";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private Path docs;
    private Path indexDir;
    private Map<String, String> properties;

    @BeforeEach
    void docsAndTenants() throws IOException {
        docs = dir.resolve("docs");
        Path fixture = Path.of("src/test/resources/fixture-docs");
        try (Stream<Path> files = Files.walk(fixture)) {
            for (Path file : files.toList()) {
                Files.copy(file, docs.resolve(fixture.relativize(file).toString()));
            }
        }
        indexDir = dir.resolve("index");
        properties = properties(docs.toString(), indexDir);
    }

    private Map<String, String> properties(String docs, Path indexDir) throws IOException {
        Path tenants = Files.writeString(dir.resolve("tenants.yaml"), """
                organizations:
                  - id: org
                    apiKeys: [%s]
                    adminKeys: [%s]
                    domains:
                      - id: docs
                        docs: %s
                """.formatted(KEY, ADMIN_KEY, docs));
        return Map.of("assistant.tenants-file", tenants.toString(), "assistant.search.semantic", "true",
                "assistant.search.reload-seconds", "0", "assistant.search.index-dir", indexDir.toString());
    }

    @Test
    void restartOnUnchangedDocsEmbedsNothingAndAnEditEmbedsOnlyItsPage() throws Exception {
        long firstStart = embeddedAtStart();
        assertTrue(firstStart > 5, "the first start embeds every English passage: " + firstStart);
        assertEquals(1, indexFiles().size());

        assertEquals(0, embeddedAtStart(), "a restart on the same docs opens the kept index");

        Files.writeString(docs.resolve("guides/install.mdx"), "---\ntitle: Install the CLI\n---\n\nUse pnpm.\n");
        assertEquals(1, embeddedAtStart(), "only the edited page's one passage");
        assertEquals(1, indexFiles().size(), "the index of the earlier docs is replaced");
        assertEquals(0, embeddedAtStart());
    }

    /**
     * The trigger after a one-page edit writes that page's documents alone into the index in use (the others are
     * neither parsed nor analyzed again), and the index kept afterwards is what a restart opens: the new text, found
     * with nothing embedded.
     */
    @Test
    void aTriggeredSyncWritesOnlyTheEditedPageAndARestartServesIt() throws Exception {
        try (ServiceInstance service = ServiceInstance.start(properties, http)) {
            assertEquals(ANSWER, search(service, QUESTION).get(0));
            Files.writeString(docs.resolve("guides/install.mdx"),
                    "---\ntitle: Install the CLI\n---\n\nInstall the CLI with the numbat installer.\n");
            HttpResponse<String> accepted = http.send(HttpRequest.newBuilder(service.uri("/v1/project/update/docs"))
                    .header("Authorization", "Bearer " + ADMIN_KEY).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(202, accepted.statusCode(), accepted.body());
            String statusId = new ObjectMapper().readTree(accepted.body()).get("statusId").asText();
            awaitSuccess(service, statusId);
            assertEquals("/guides/install", search(service, "numbat").get(0));
            assertEquals(1.0, metric(service, "assistant_docs_sync_pages_written\\{domain=\"docs\"} (\\S+)"),
                    "the edited page alone was written");
        }
        try (ServiceInstance service = ServiceInstance.start(properties, http)) {
            assertEquals("/guides/install", search(service, "numbat").get(0), "the restart serves the synced text");
            assertEquals(0.0, metric(service,
                    "assistant_search_embedded_passages_total\\{domain=\"docs\"} (\\S+)"), "opened, not built");
        }
        assertEquals(1, indexFiles().size(), "the file of the docs before the sync is replaced");
    }

    private List<String> search(ServiceInstance service, String query) throws Exception {
        HttpResponse<String> search = http.send(HttpRequest.newBuilder(service.uri("/v1/search/docs"))
                .header("Authorization", "Bearer " + KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"" + query + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, search.statusCode(), search.body());
        return new ObjectMapper().readTree(search.body()).findValues("path").stream().map(JsonNode::asText).toList();
    }

    private void awaitSuccess(ServiceInstance service, String statusId) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            String body = http.send(HttpRequest.newBuilder(service.uri("/v1/project/update-status/" + statusId))
                    .header("Authorization", "Bearer " + ADMIN_KEY).build(), HttpResponse.BodyHandlers.ofString())
                    .body();
            String status = new ObjectMapper().readTree(body).get("status").asText();
            assertNotEquals("failure", status, body);
            if (status.equals("success")) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, body);
            Thread.sleep(50);
        }
    }

    /** The metric's value once the service reports it (metrics are registered after the first answer). */
    private double metric(ServiceInstance service, String pattern) throws Exception {
        URI metricsUri = URI.create("http://127.0.0.1:" + ServiceTest.managementPort(service.context())
                + "/observe/metrics");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            String metrics = http.send(HttpRequest.newBuilder(metricsUri).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher value = Pattern.compile(pattern).matcher(metrics);
            if (value.find()) {
                return Double.parseDouble(value.group(1));
            }
            assertTrue(System.nanoTime() < deadline, metrics);
            Thread.sleep(20);
        }
    }

    @Test
    void corruptIndexFileIsRebuiltNotServed() throws Exception {
        long firstStart = embeddedAtStart();
        Path file = indexFiles().get(0);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x5a;
        Files.write(file, bytes);

        assertEquals(firstStart, embeddedAtStart(), "rebuilt from the docs, nothing taken from the corrupt file");
        assertEquals(0, embeddedAtStart(), "and kept again");

        Files.write(file, new byte[] {1, 2, 3}); // truncated, as by a crash in a copy made outside the service
        assertEquals(firstStart, embeddedAtStart());
    }

    @Test
    void bundledDocsOpenTheIndexBuiltWithTheJar() throws Exception {
        assertEquals(0, embeddedAtStart(properties("classpath:demo-docs", indexDir),
                "How long are conversation threads kept?", "/guides/threads"));
    }

    @Test
    void unwritableIndexDirLeavesTheIndexInMemory() throws Exception {
        Path notAFolder = Files.writeString(dir.resolve("file"), "");
        Map<String, String> unwritable = properties(docs.toString(), notAFolder.resolve("index"));
        long firstStart = embeddedAtStart(unwritable, QUESTION, ANSWER);
        assertTrue(firstStart > 5);
        assertEquals(firstStart, embeddedAtStart(unwritable, QUESTION, ANSWER));
    }

    private long embeddedAtStart() throws Exception {
        return embeddedAtStart(properties, QUESTION, ANSWER);
    }

    /**
     * Starts the service, checks it finds the page that answers the question first, and returns how many passages
     * it embedded to get there.
     */
    private long embeddedAtStart(Map<String, String> properties, String question, String answer) throws Exception {
        try (ServiceInstance service = ServiceInstance.start(properties, http)) {
            HttpResponse<String> search = http.send(HttpRequest.newBuilder(service.uri("/v1/search/docs"))
                    .header("Authorization", "Bearer " + KEY).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"" + question + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, search.statusCode(), search.body());
            assertEquals(answer, new ObjectMapper().readTree(search.body()).get(0).get("path").asText());
            // the index metrics are registered by the request counter, which runs once the answer is sent
            return (long) metric(service, "assistant_search_embedded_passages_total\\{domain=\"docs\"} (\\S+)");
        }
    }

    private List<Path> indexFiles() throws IOException {
        try (Stream<Path> files = Files.list(indexDir.resolve("docs/all-MiniLM-L6-v2-q"))) {
            return files.filter(file -> file.toString().endsWith(".index")).toList();
        }
    }
}
