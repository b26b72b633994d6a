package dev.docsassistant;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the tests of domains served from a Git repository do: lay out a working copy of the fixture docs, push it to
 * a bare repository, trigger an update through the public API and wait for its end, and search the domain.
 */
abstract class GitSyncTest extends ServiceTest {

    /** The admin key of organization acme, which the tests' tenants files give it. */
    static final String ADMIN_KEY = "mint_adm_acme_secret_0123456789";

    /** Every update status the class's tests read, as the client got it. */
    protected final List<String> statusesRead = new CopyOnWriteArrayList<>();

    /** Empties {@code home}, then makes {@code home/repos/docs.git} (bare) and {@code home/work}, a working copy. */
    static void createRepositories(Path home) throws IOException, InterruptedException {
        if (Files.exists(home)) {
            try (Stream<Path> old = Files.walk(home)) {
                old.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        Path repos = home.resolve("repos");
        Files.createDirectories(repos);
        GitHttpServer.git(repos, "init", "-q", "--bare", "-b", "main", "docs.git");
        GitHttpServer.git(home, "init", "-q", "-b", "main", "work");
    }

    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    /** Commits everything in {@code home/work} and pushes it to {@code home/repos/docs.git}. */
    static void push(Path home) throws IOException, InterruptedException {
        Path work = home.resolve("work");
        GitHttpServer.git(work, "add", "-A");
        GitHttpServer.git(work, "commit", "-q", "-m", "edit");
        GitHttpServer.git(work, "push", "-q", "-f", home.resolve("repos/docs.git").toString(), "main");
    }

    /** Adds the page /guides/quokka ("Quokka mode makes every answer smile") to the navigation and pushes it. */
    static void pushQuokkaPage(Path home) throws IOException, InterruptedException {
        Path docs = home.resolve("work/docs");
        Files.writeString(docs.resolve("guides/quokka.mdx"),
                "---\ntitle: Quokka mode\n---\n\nQuokka mode makes every answer smile.\n");
        Path navigation = docs.resolve("docs.json"); // a page outside the navigation is hidden (Mintlify)
        Files.writeString(navigation, Files.readString(navigation)
                .replace("\"guides/quotas\"]", "\"guides/quotas\", \"guides/quokka\"]"));
        push(home);
    }

    protected List<String> searchedPaths(String domain, String query) throws Exception {
        HttpResponse<String> response = send(post("/v1/search/" + domain, ACME_KEY,
                JSON.createObjectNode().put("query", query).toString()));
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body()).findValues("path").stream().map(JsonNode::asText).toList();
    }

    protected HttpResponse<String> trigger(String domain, String key) throws Exception {
        return send(HttpRequest.newBuilder(uri("/v1/project/update/" + domain)).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + key).POST(HttpRequest.BodyPublishers.noBody()));
    }

    protected HttpResponse<String> status(String statusId, String key) throws Exception {
        return send(HttpRequest.newBuilder(uri("/v1/project/update-status/" + statusId))
                .timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + key).GET());
    }

    /** Triggers an update of the domain with the admin key and returns its final status (success or failure). */
    protected JsonNode update(String domain, String adminKey) throws Exception {
        HttpResponse<String> accepted = trigger(domain, adminKey);
        assertEquals(202, accepted.statusCode(), accepted.body());
        String statusId = JSON.readTree(accepted.body()).get("statusId").asText();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            HttpResponse<String> response = status(statusId, adminKey);
            assertEquals(200, response.statusCode(), response.body());
            statusesRead.add(response.body());
            JsonNode status = JSON.readTree(response.body());
            assertEquals(statusId, status.get("_id").asText());
            assertEquals(domain, status.get("projectId").asText());
            String state = status.get("status").asText();
            assertTrue(List.of("queued", "in_progress", "success", "failure").contains(state), state);
            if (state.equals("success") || state.equals("failure")) {
                return status;
            }
            assertTrue(System.nanoTime() < deadline, "the update did not end: " + status);
            Thread.sleep(50);
        }
    }
}
