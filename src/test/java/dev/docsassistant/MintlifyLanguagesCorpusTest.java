package dev.docsassistant;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The search endpoint on the Mintlify docs in four languages: each filter searches only its language's pages. */
@EnabledIf(value = "dev.docsassistant.MintlifyCorpusTest#corpusPresent",
        disabledReason = "../shared/corpus/mintlify-docs not found: corpus tests skipped")
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/corpus-tenants.yaml",
        "assistant.ratelimit.ip-per-day=100000", "assistant.search.semantic=false"})
class MintlifyLanguagesCorpusTest extends ServiceTest {

    static {
        MintlifyCorpusTest.writeTenants();
    }

    @ParameterizedTest(name = "{1}: {0} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            ¿Qué tipos de avisos puedo usar para resaltar información?      | es | /es/components/callouts
            控制台会话的空闲超时可以设置的范围是多少？                          | zh | /zh/dashboard/session-security
            How do I add a redirect?                                        | en | /create/redirects
            """)
    void searchesEachLanguageOfTheSite(String question, String language, String page) throws Exception {
        HttpResponse<String> response = send(post("/v1/search/mintlify", "mint_dsc_corpus_test",
                JSON.writeValueAsString(Map.of("query", question, "pageSize", 5,
                        "filter", Map.of("language", language)))));
        List<String> paths = JSON.readTree(response.body()).findValuesAsText("path");
        assertTrue(paths.contains(page), question + " -> " + paths);
        assertTrue(paths.stream().allMatch(p -> language.equals("en") ? !p.matches("/(fr|es|zh)/.*")
                : p.startsWith("/" + language + "/")), "only " + language + " pages: " + paths);
    }

}
