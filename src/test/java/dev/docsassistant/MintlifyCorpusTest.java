package dev.docsassistant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real questions against a real documentation site: the Mintlify docs in ../shared/corpus (not part of this
 * repository, so a clone without it skips these tests).
 */
@EnabledIf(value = "corpusPresent", disabledReason = "../shared/corpus/mintlify-docs not found: corpus tests skipped")
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/corpus-tenants.yaml",
        "assistant.ratelimit.ip-per-day=100000",
        // words only: embedding the whole site would add most of a minute to CI; bench/retrieval.sh measures both
        "assistant.search.semantic=false"})
class MintlifyCorpusTest extends ServiceTest {

    static final Path MINTLIFY = Path.of(System.getProperty("shared.corpus", "../shared/corpus"), "mintlify-docs");

    static {
        writeTenants();
    }

    static void writeTenants() {
        try {
            Files.createDirectories(Path.of("target"));
            Files.writeString(Path.of("target/corpus-tenants.yaml"), """
                    organizations:
                      - id: mintlify
                        apiKeys: [mint_dsc_corpus_test]
                        domains:
                          - id: mintlify
                            docs: %s
                            siteUrl: https://mintlify.com/docs
                    """.formatted(MINTLIFY.toAbsolutePath()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean corpusPresent() {
        return Files.isRegularFile(MINTLIFY.resolve("docs.json"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            How do I add a redirect?                                        | /create/redirects
            How do I export the entire docs site to a single PDF?           | /optimize/pdf-exports
            """)
    void findsAndCitesThePageThatAnswers(String question, String page) throws Exception {
        HttpResponse<String> response = ask("mintlify", "mint_dsc_corpus_test", question(question));
        List<Part> parts = parts(response.body());
        List<String> hits = parts.stream().filter(p -> p.code().equals("a")).findFirst().orElseThrow()
                .value().get("result").findValuesAsText("path");
        assertTrue(hits.contains(page), question + " -> " + hits);
        List<String> cited = parts.stream().filter(p -> p.code().equals("h"))
                .map(p -> p.value().get("url").asText()).collect(Collectors.toList());
        assertTrue(cited.contains("https://mintlify.com/docs" + page), "cited " + cited);
        String text = parts.stream().filter(p -> p.code().equals("0")).map(p -> p.value().asText())
                .collect(Collectors.joining());
        assertTrue(text.contains("Quoted from [") && text.contains("](https://mintlify.com/docs" + page), text);
    }

    /**
     * Mintlify's own hidden (hidden: true) and noindex pages: absent from search, answers and /v1/page. Dynamic tests,
     * which share the one service (a parameterized test gets its own).
     */
    @TestFactory
    Stream<DynamicTest> hiddenAndNoindexPagesAreNeitherFoundNorCited() {
        return Stream.of(
                new String[] {"enterprise contracting legal satisfaction issue", "/enterprise-contracting"},
                new String[] {"go-live checklist before going live", "/migration-services/go-live-checklist"},
                new String[] {"assistant widget preview", "/assistant/widget-preview"})
                .map(row -> DynamicTest.dynamicTest(row[1], () -> absent(row[0], row[1])));
    }

    private void absent(String question, String page) throws Exception {
        HttpResponse<String> search = send(post("/v1/search/mintlify", "mint_dsc_corpus_test",
                "{\"query\":\"" + question + "\"}"));
        assertEquals(200, search.statusCode(), search.body());
        assertFalse(search.body().contains("\"path\":\"" + page + "\""), search.body());
        HttpResponse<String> answer = ask("mintlify", "mint_dsc_corpus_test", question(question));
        assertFalse(answer.body().contains("/docs" + page + "\"") || answer.body().contains("/docs" + page + "#")
                || answer.body().contains("\"path\":\"" + page + "\""), answer.body());
        assertEquals(404, send(post("/v1/page/mintlify", "mint_dsc_corpus_test", "{\"path\":\"" + page + "\"}"))
                .statusCode());
    }
}
