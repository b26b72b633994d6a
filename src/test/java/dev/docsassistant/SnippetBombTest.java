package dev.docsassistant;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * A snippet-expansion bomb in a docs folder, read by the service in its own JVM with the shipped heap flags
 * ({@code -XX:+ExitOnOutOfMemoryError}, a 512 MiB heap): four 12 KB files, a snippet used 100 times a level over three
 * levels (12 GB expanded), a page using two 12 KB snippets 99 times each (2.4 M characters) and one using a word
 * 101 times. Without bounds the JVM exited while indexing, at every start. Here the process lives, both pages are left out with their reasons in
 * the sync's status, the domain's other pages and another organization's domain are served.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SnippetBombTest {

    private static final String ACME_KEY = "mint_dsc_acme_test";
    private static final String ACME_ADMIN = "mint_adm_acme_secret_0123456789";
    private static final String GLOBEX_KEY = "mint_dsc_globex_test";
    private static final String TWELVE_KB = "The bandicoot snippet repeats itself. ".repeat(12_000 / 38);

    private final Path home = Path.of("target", "snippet-bomb").toAbsolutePath();
    private final Path log = home.resolve("service.log");
    private OwnJvmService service;

    @BeforeAll
    void startService() throws Exception {
        Path docs = home.resolve("docs");
        GitSyncTest.createRepositories(home);
        GitSyncTest.copy(Path.of("src/test/resources/fixture-docs"), docs);
        Files.writeString(docs.resolve("snippets/c.mdx"), TWELVE_KB);
        Files.writeString(docs.resolve("snippets/d.mdx"), TWELVE_KB);
        Files.writeString(docs.resolve("snippets/b.mdx"), "import C from \"/snippets/c.mdx\";\n\n"
                + "<C />\n".repeat(100));
        Files.writeString(docs.resolve("snippets/a.mdx"), "import B from \"/snippets/b.mdx\";\n\n"
                + "<B />\n".repeat(100));
        Files.writeString(docs.resolve("guides/bomb.mdx"), "---\ntitle: Bomb\n---\nimport A from \"/snippets/a.mdx\";"
                + "\n\n" + "<A />\n".repeat(100));
        Files.writeString(docs.resolve("guides/wide.mdx"), "---\ntitle: Wide\n---\nimport C from \"/snippets/c.mdx\";"
                + "\nimport D from \"/snippets/d.mdx\";\n\n" + "<C />\n<D />\n".repeat(99));
        Files.writeString(docs.resolve("snippets/e.mdx"), "Echidna.");
        Files.writeString(docs.resolve("guides/many.mdx"), "---\ntitle: Many\n---\nimport E from \"/snippets/e.mdx\";"
                + "\n\n" + "<E />\n".repeat(101));
        Path navigation = docs.resolve("docs.json");
        Files.writeString(navigation, Files.readString(navigation).replace("\"guides/quotas\"]",
                "\"guides/quotas\", \"guides/bomb\", \"guides/wide\", \"guides/many\"]"));
        Path tenants = home.resolve("tenants.yaml");
        Files.writeString(tenants, """
                organizations:
                  - id: acme
                    apiKeys: [%s]
                    adminKeys: [%s]
                    domains:
                      - id: bombed
                        docs: %s
                  - id: globex
                    apiKeys: [%s]
                    domains:
                      - id: globex
                        docs: classpath:fixture-docs
                """.formatted(ACME_KEY, ACME_ADMIN, docs, GLOBEX_KEY));
        service = OwnJvmService.launch(Path.of(System.getProperty("java.home"), "bin", "java"),
                        List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError"), log, null)
                .property("assistant.tenants-file", tenants.toString())
                .property("assistant.search.semantic", "false")
                .property("assistant.search.reload-seconds", "0")
                .start(120);
    }

    @AfterAll
    void stopService() throws InterruptedException {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void theProcessLivesTheBombIsLeftOutAndEveryOtherPageIsServed() throws Exception {
        assertTrue(service.isAlive(), "the service is still running");
        JsonNode update = service.update("bombed", ACME_ADMIN, Duration.ofSeconds(60));
        assertEquals("success", update.get("status").asText(), update.toString());
        String summary = update.get("summary").asText();
        assertTrue(summary.contains("3 pages left out"), summary);
        assertTrue(summary.contains("/guides/bomb: it expands past 2097152 characters "
                + "(assistant.search.max-page-chars)"), summary);
        assertTrue(summary.contains("/guides/wide: it expands past 2097152 characters "
                + "(assistant.search.max-page-chars)"), summary);
        assertTrue(summary.contains("/guides/many: it inlines /snippets/e.mdx more than 100 times "
                + "(assistant.search.max-snippet-uses)"), summary);
        assertEquals(404, service.post("/v1/page/bombed", ACME_KEY, "{\"path\": \"/guides/bomb\"}").statusCode());
        HttpResponse<String> install = service.post("/v1/search/bombed", ACME_KEY, "{\"query\": \"Install the CLI\"}");
        assertEquals(200, install.statusCode(), install.body());
        assertTrue(install.body().contains("/guides/install"), install.body());
        assertFalse(service.post("/v1/search/bombed", ACME_KEY, "{\"query\": \"bandicoot\"}").body().contains("bomb"));
        HttpResponse<String> other = service.post("/v1/search/globex", GLOBEX_KEY, "{\"query\": \"Install the CLI\"}");
        assertEquals(200, other.statusCode(), other.body());
        assertTrue(other.body().contains("/guides/install"), other.body());
        assertTrue(service.isAlive(), "the service is still running");
        assertTrue(Files.readString(log).lines().noneMatch(line -> line.contains("OutOfMemoryError")),
                "no OutOfMemoryError in " + log);
    }
}
