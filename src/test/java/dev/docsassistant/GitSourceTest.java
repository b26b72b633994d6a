package dev.docsassistant;

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
import dev.docsassistant.sources.WebhookSignature;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Domains served from Git repositories on a real Git server on loopback ({@code git http-backend} behind
 * {@link GitHttpServer}, with a user and password): a push then the trigger is searched within seconds while answers
 * keep flowing, a removed page disappears, every kind of failed sync keeps the last good index and reports the
 * failure, webhooks are verified, and a symbolic link out of the checkout is never followed.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/git-source/tenants.yaml",
        "assistant.search.semantic=false", "assistant.sources.refresh-seconds=0",
        "assistant.sources.timeout-seconds=5", "assistant.sources.dir=target/git-source/sources",
        "assistant.sources.allow-private-addresses=true", "assistant.sources.allow-http=true",
        "assistant.sources.kept-updates=" + GitSourceTest.KEPT,
        ServiceTest.UNLIMITED_ADDRESS_RATE, ServiceTest.UNLIMITED_ADDRESS_STREAMS})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GitSourceTest extends GitSyncTest {

    /** How many updates of each organization the service remembers here: small, so a test can go past it. */
    static final int KEPT = 5;
    private static final Path HOME = Path.of("target/git-source").toAbsolutePath();
    private static final Path WORK = HOME.resolve("work");
    private static final Path CREDENTIALS = HOME.resolve("credentials");
    private static final String GLOBEX_ADMIN_KEY = "mint_adm_globex_secret_0123456789";
    private static final String WEBHOOK_SECRET = "hook-secret-4711";
    private static final String GITLAB_TOKEN = "gitlab-token-0815";
    /** The placeholder k8s/overlays/demo ships as the webhook secret. */
    private static final String PLACEHOLDER_SECRET = "replace-with-the-webhook-secret";
    private static final CapturedLogs LOGS = CapturedLogs.capture();
    /** A second server of the same repositories: another host for the same remote. */
    private static final GitHttpServer MIRROR = GitTenants.setUp(() -> new GitHttpServer(HOME.resolve("repos"),
            "alice", "s3cret"));
    private static final GitHttpServer SERVER = GitTenants.setUp(() -> {
        createRepositories(HOME);
        Path repos = HOME.resolve("repos");
        copy(Path.of("src/test/resources/fixture-docs"), WORK.resolve("docs"));
        Files.createDirectories(WORK.resolve("private"));
        Files.writeString(WORK.resolve("private/secret.mdx"), "# Secret\n\nThe platypus password is hunter2.\n");
        Files.createSymbolicLink(WORK.resolve("docs/leak.mdx"), Path.of("../private/secret.mdx"));
        Files.createSymbolicLink(WORK.resolve("docs/hosts.mdx"), Path.of("/etc/hosts"));
        GitHttpServer.git(WORK, "add", "-A");
        GitHttpServer.git(WORK, "commit", "-q", "-m", "docs");
        GitHttpServer.git(WORK, "tag", "v1");
        GitHttpServer.git(WORK, "push", "-q", repos.resolve("docs.git").toString(), "main", "v1");
        GitHttpServer server = new GitHttpServer(repos, "alice", "s3cret");
        Files.writeString(CREDENTIALS, "alice:s3cret\n");
        Files.writeString(HOME.resolve("webhook-secret"), WEBHOOK_SECRET);
        Files.writeString(HOME.resolve("gitlab-token"), GITLAB_TOKEN);
        Files.writeString(HOME.resolve("placeholder-secret"), PLACEHOLDER_SECRET + "\n");
        GitTenants.write(HOME, """
                - id: gitdocs
                  docs: {git: "%s", ref: main, path: docs, credentials: ./credentials,
                         webhookSecret: ./webhook-secret, gitlabToken: ./gitlab-token}
                  siteUrl: https://docs.acme.example
                - id: pinned
                  docs: {git: "%s", ref: v1, path: docs, credentials: ./credentials}
                - id: mirrored
                  docs: {git: "%s", ref: main, path: docs, credentials: ./credentials,
                         webhookSecret: ./placeholder-secret}
                """.formatted(server.url("docs.git"), server.url("docs.git"), MIRROR.url("docs.git")), """
                - id: globex
                  apiKeys: [%s]
                  adminKeys: [%s]
                  domains:
                    - id: globex
                      docs: classpath:demo-docs
                """.formatted(GLOBEX_KEY, GLOBEX_ADMIN_KEY));
        return server;
    });

    @AfterAll
    void stopServers() {
        SERVER.close();
        MIRROR.close();
    }

    private int health() throws Exception {
        return http.send(HttpRequest.newBuilder(managementUri("/observe/health/ready")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    @Order(1)
    void aDomainIsServedFromItsRepositoryAndLinksFollowNothing() throws Exception {
        assertEquals(List.of("/guides/install"), searchedPaths("gitdocs", "Install the CLI with npm").subList(0, 1));
        assertEquals("/guides/install", searchedPaths("pinned", "Install the CLI with npm").get(0),
                "a tag is served as a branch is");
        assertTrue(searchedPaths("gitdocs", "platypus hunter2").isEmpty(),
                "a symbolic link out of the docs folder is not followed");
        assertTrue(searchedPaths("gitdocs", "localhost").stream().noneMatch(path -> path.contains("hosts")),
                "a symbolic link to an absolute path is not followed");
        assertEquals(404, send(post("/v1/page/gitdocs", ACME_KEY, "{\"path\": \"/leak\"}")).statusCode());
        JsonNode hit = JSON.readTree(send(post("/v1/search/gitdocs", ACME_KEY, "{\"query\": \"Install the CLI\"}"))
                .body()).get(0);
        assertTrue(hit.get("metadata").get("url").asText().startsWith("https://docs.acme.example/guides/install"));
        assertTrue(LOGS.lines().stream().anyMatch(line -> line.contains("Indexed domain 'gitdocs'")
                && line.contains("pages")), "indexing says when it is done");
        assertTrue(LOGS.lines().stream().noneMatch(line -> line.contains("s3cret")), "no credential in the log");
    }

    @Test
    @Order(2)
    void aPushedPageIsSearchedAfterTheTriggerWhileAnswersKeepFlowing() throws Exception {
        pushQuokkaPage(HOME);
        assertTrue(searchedPaths("gitdocs", "quokka smile").isEmpty());
        AtomicBoolean syncing = new AtomicBoolean(true);
        List<Integer> statuses = new CopyOnWriteArrayList<>();
        Thread asker = new Thread(() -> {
            while (syncing.get()) {
                try {
                    statuses.add(ask("gitdocs", ACME_KEY, question("How do I install the CLI?")).statusCode());
                } catch (Exception e) {
                    statuses.add(-1);
                }
            }
        });
        asker.start();
        JsonNode status;
        try {
            status = update("gitdocs", ADMIN_KEY);
        } finally {
            syncing.set(false);
            asker.join();
        }
        assertEquals("success", status.get("status").asText(), status.toString());
        assertEquals(List.of("/guides/quokka"), JSON.convertValue(status.get("filesChanged").get("added"),
                List.class));
        // Mintlify's shape: the commit with its ref and the pages changed, what asked, the domain as subdomain
        JsonNode commit = status.get("commit");
        assertEquals(status.get("filesChanged"), commit.get("filesChanged"));
        assertEquals(status.get("revision").asText(), commit.get("sha").asText());
        assertTrue(commit.get("sha").asText().matches("[0-9a-f]{40}"), commit.toString());
        assertEquals("main", commit.get("ref").asText());
        assertEquals("api", status.get("source").asText());
        assertEquals("gitdocs", status.get("subdomain").asText());
        assertEquals(List.of(status.get("summary").asText()), JSON.convertValue(status.get("logs"), List.class));
        assertEquals(List.of("/guides/quokka"), searchedPaths("gitdocs", "quokka smile"));
        String answer = ask("gitdocs", ACME_KEY, question("What does quokka mode do?")).body();
        assertTrue(answer.contains("/guides/quokka"), "the answer cites the new page: " + answer);
        assertFalse(statuses.isEmpty());
        assertTrue(statuses.stream().allMatch(code -> code == 200), "answers kept flowing: " + statuses);
        String metrics = http.send(HttpRequest.newBuilder(managementUri("/observe/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("assistant_docs_sync_pages_written{domain=\"gitdocs\"} 1.0"),
                "the added page's documents alone were written: " + metrics);
        assertTrue(LOGS.lines().stream().anyMatch(line -> line.contains("Fetched docs of domain 'gitdocs'")
                && line.contains("(2 written)")), "the new page and docs.json alone were written out");

        JsonNode unchanged = update("gitdocs", ADMIN_KEY);
        assertEquals("success", unchanged.get("status").asText());
        assertEquals("unchanged", unchanged.get("summary").asText());
    }

    @Test
    @Order(3)
    void aRemovedPageDisappears() throws Exception {
        Files.delete(WORK.resolve("docs/guides/dark-mode.mdx"));
        Files.writeString(WORK.resolve("docs/guides/install.mdx"),
                "---\ntitle: \"Install the CLI\"\n---\n\nInstall the CLI with npm or with the wombat installer.\n");
        push(HOME);
        JsonNode status = update("gitdocs", ADMIN_KEY);
        assertEquals("success", status.get("status").asText(), status.toString());
        assertEquals(List.of("/guides/dark-mode"), JSON.convertValue(status.get("filesChanged").get("removed"),
                List.class));
        assertEquals(List.of("/guides/install"), JSON.convertValue(status.get("filesChanged").get("modified"),
                List.class));
        assertFalse(searchedPaths("gitdocs", "dark mode theme").contains("/guides/dark-mode"));
        assertEquals(404, send(post("/v1/page/gitdocs", ACME_KEY, "{\"path\": \"/guides/dark-mode\"}"))
                .statusCode());
        assertEquals("/guides/install", searchedPaths("gitdocs", "wombat installer").get(0));
    }

    @Test
    @Order(4)
    void everyFailedSyncKeepsTheLastGoodIndexAndIsReported() throws Exception {
        Files.writeString(CREDENTIALS, "alice:wrong");
        JsonNode badCredentials = update("gitdocs", ADMIN_KEY);
        Files.writeString(CREDENTIALS, "alice:s3cret");
        assertEquals("failure", badCredentials.get("status").asText());
        assertFalse(badCredentials.get("summary").asText().contains("wrong"), "the secret is not reported");
        assertEquals("/guides/install", searchedPaths("gitdocs", "wombat installer").get(0));

        GitHttpServer.git(HOME.resolve("repos"), "--git-dir=docs.git", "tag", "-d", "v1");
        JsonNode missingRef = update("pinned", ADMIN_KEY);
        assertEquals("failure", missingRef.get("status").asText());
        assertTrue(missingRef.get("summary").asText().contains("ref 'v1' not found"), missingRef.toString());
        assertEquals("/guides/install", searchedPaths("pinned", "Install the CLI with npm").get(0));

        MIRROR.close();
        JsonNode unreachable = update("mirrored", ADMIN_KEY);
        assertEquals("failure", unreachable.get("status").asText());
        assertEquals("/guides/install", searchedPaths("mirrored", "Install the CLI with npm").get(0));

        GitHttpServer.git(WORK, "rm", "-q", "docs/docs.json");
        push(HOME);
        JsonNode lostDocsJson = update("gitdocs", ADMIN_KEY);
        assertEquals("failure", lostDocsJson.get("status").asText());
        assertTrue(lostDocsJson.get("summary").asText().contains("no docs.json"), lostDocsJson.toString());
        assertEquals("/guides/install", searchedPaths("gitdocs", "wombat installer").get(0));

        assertEquals(200, health(), "readiness stays UP: every domain has a good index");
        String metrics = http.send(HttpRequest.newBuilder(managementUri("/observe/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("assistant_docs_sync_failures_total{domain=\"gitdocs\"} 2.0"), metrics);
        assertTrue(metrics.contains("assistant_docs_sync_last_success_seconds{domain=\"gitdocs\"}"));
        assertTrue(LOGS.lines().stream().anyMatch(line -> line.contains("Cannot index domain 'gitdocs'")
                && line.contains("still answering from the previous index")));
        assertTrue(LOGS.lines().stream().noneMatch(line -> line.contains("s3cret")), "no credential in the log");
    }

    @Test
    @Order(5)
    void onlyTheOrganizationsAdminKeyTriggersAndReadsAnUpdate() throws Exception {
        assertEquals(401, trigger("gitdocs", ACME_KEY).statusCode(), "a public key is not an admin key");
        assertEquals(403, trigger("gitdocs", GLOBEX_ADMIN_KEY).statusCode(), "another organization's domain");
        String statusId = JSON.readTree(trigger("pinned", ADMIN_KEY).body()).get("statusId").asText();
        assertEquals(403, status(statusId, GLOBEX_ADMIN_KEY).statusCode());
        assertEquals(401, status(statusId, ACME_KEY).statusCode());
        assertEquals(404, status("no-such-update", ADMIN_KEY).statusCode());
    }

    @Test
    @Order(6)
    void aWebhookIsVerifiedBeforeItTriggersASync() throws Exception {
        byte[] body = "{\"ref\":\"refs/heads/main\"}".getBytes(StandardCharsets.UTF_8);
        String signature = "sha256=" + WebhookSignature.hmac(WEBHOOK_SECRET, body);
        assertEquals(401, webhook("gitdocs", body, null, null).statusCode(), "unsigned");
        assertEquals(401, webhook("gitdocs", body, "sha256=" + WebhookSignature.hmac("guess", body), null)
                .statusCode(), "signed with another secret");
        assertEquals(401, webhook("gitdocs", "{\"ref\":\"other\"}".getBytes(StandardCharsets.UTF_8), signature,
                null).statusCode(), "the signature of another body");
        assertEquals(401, webhook("gitdocs", body, null, "guess").statusCode(), "a wrong GitLab token");
        assertEquals(401, webhook("pinned", body, signature, null).statusCode(), "a domain without a secret");
        assertEquals(401, webhook("nosuchdomain", body, signature, null).statusCode());
        assertEquals(401, webhook("mirrored", body, "sha256=" + WebhookSignature.hmac(PLACEHOLDER_SECRET, body), null)
                .statusCode(), "the shipped placeholder is no secret: whoever read the manifests could sign");
        HttpResponse<String> github = webhook("gitdocs", body, signature, null);
        assertEquals(202, github.statusCode(), github.body());
        String fromGithub = JSON.readTree(github.body()).get("statusId").asText();
        assertEquals("github", JSON.readTree(status(fromGithub, ADMIN_KEY).body()).get("source").asText());
        awaitEnded(fromGithub);
        assertEquals(401, webhook("gitdocs", body, null, WEBHOOK_SECRET).statusCode(),
                "GitHub's HMAC key is not GitLab's token");
        assertEquals(401, webhook("gitdocs", body, "sha256=" + WebhookSignature.hmac(GITLAB_TOKEN, body), null)
                .statusCode(), "GitLab's token, which it sends in the clear, does not sign as GitHub");
        HttpResponse<String> gitlab = webhook("gitdocs", body, null, GITLAB_TOKEN);
        assertEquals(202, gitlab.statusCode(), "GitLab's token");
        assertEquals("gitlab", JSON.readTree(status(JSON.readTree(gitlab.body()).get("statusId").asText(), ADMIN_KEY)
                .body()).get("source").asText());
    }

    @Test
    @Order(7)
    void oneOrganizationsTriggersNeverForgetAnothersStatuses() throws Exception {
        String globex = JSON.readTree(trigger("globex", GLOBEX_ADMIN_KEY).body()).get("statusId").asText();
        String first = JSON.readTree(update("pinned", ADMIN_KEY).toString()).get("_id").asText();
        for (int i = 0; i < KEPT; i++) {
            update("pinned", ADMIN_KEY); // each ended before the next, so each is an update of its own
        }
        assertEquals(404, status(first, ADMIN_KEY).statusCode(), "acme's oldest is forgotten past the bound");
        HttpResponse<String> kept = status(globex, GLOBEX_ADMIN_KEY);
        assertEquals(200, kept.statusCode(), "globex's update outlives acme's triggers: " + kept.body());
    }

    @Test
    @Order(8)
    void aReplayedGithubDeliveryQueuesNothing() throws Exception {
        byte[] body = "{\"ref\":\"refs/heads/main\",\"after\":\"replayed\"}".getBytes(StandardCharsets.UTF_8);
        String signature = "sha256=" + WebhookSignature.hmac(WEBHOOK_SECRET, body);
        HttpResponse<String> first = webhook("gitdocs", body, signature, null, "delivery-1");
        assertEquals(202, first.statusCode(), first.body());
        String statusId = JSON.readTree(first.body()).get("statusId").asText();
        awaitEnded(statusId); // a delivery after this one ended would queue an update of its own
        for (String deliveryId : new String[] {"delivery-1", "delivery-2", null}) {
            HttpResponse<String> replay = webhook("gitdocs", body, signature, null, deliveryId);
            assertEquals(202, replay.statusCode(), replay.body());
            assertEquals(statusId, JSON.readTree(replay.body()).get("statusId").asText(),
                    "the same signed body (delivery id " + deliveryId + ") answers the update it queued");
        }
        byte[] next = "{\"ref\":\"refs/heads/main\",\"after\":\"next\"}".getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> sameId = webhook("gitdocs", next, "sha256=" + WebhookSignature.hmac(WEBHOOK_SECRET, next),
                null, "delivery-1");
        assertEquals(statusId, JSON.readTree(sameId.body()).get("statusId").asText(), "a delivery id seen before");
        HttpResponse<String> fresh = webhook("gitdocs", next, "sha256=" + WebhookSignature.hmac(WEBHOOK_SECRET, next),
                null, "delivery-3");
        assertEquals(202, fresh.statusCode(), fresh.body());
        assertTrue(!statusId.equals(JSON.readTree(fresh.body()).get("statusId").asText()),
                "a new push syncs: " + fresh.body());
    }

    /** Waits until the update is no longer queued, so the next trigger queues one of its own. */
    private void awaitEnded(String statusId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!JSON.readTree(status(statusId, ADMIN_KEY).body()).has("endedAt")) {
            assertTrue(System.nanoTime() < deadline, "the update did not end");
            Thread.sleep(50);
        }
    }

    private HttpResponse<String> webhook(String domain, byte[] body, String githubSignature, String gitlabToken)
            throws Exception {
        return webhook(domain, body, githubSignature, gitlabToken, null);
    }

    private HttpResponse<String> webhook(String domain, byte[] body, String githubSignature, String gitlabToken,
            String deliveryId) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri("/v1/project/webhook/" + domain))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (githubSignature != null) {
            request.header("X-Hub-Signature-256", githubSignature);
        }
        if (deliveryId != null) {
            request.header("X-GitHub-Delivery", deliveryId);
        }
        if (gitlabToken != null) {
            request.header("X-Gitlab-Token", gitlabToken);
        }
        return send(request);
    }
}
