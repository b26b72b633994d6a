package dev.docsassistant.search;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Retrieval over {@code src/test/resources/fixture-docs}: a site with versions v2 (default) and v1, languages en,
 * fr (through a {@code $ref}) and ja, a snippet, an OpenAPI-only page, a hidden page and a {@code .mintignore}d one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DomainIndexTest {

    private DomainIndex index;
    private DomainIndex lexicalOnly;

    @BeforeAll
    void build() throws Exception {
        Docs docs = DocsFolder.read("classpath:fixture-docs");
        index = DomainIndex.build(docs, "https://docs.example.com", true, Map.of());
        lexicalOnly = DomainIndex.build(docs, "https://docs.example.com", false, Map.of());
    }

    private List<String> paths(SearchQuery query) {
        return index.search(query).stream().map(SearchHit::path).toList();
    }

    private static SearchQuery query(String question, String language, String version, String currentPath) {
        return new SearchQuery(question, "", "", language, version, List.of(), currentPath, 5, 0);
    }

    @Test
    void aQuestionOfThousandsOfWordsIsSearchedByItsFirstOnes() {
        String essay = "How do I install the service? " + IntStream.range(0, 3_000).mapToObj(i -> "word" + i)
                .collect(Collectors.joining(" "));
        String cjk = IntStream.range(0, 3_000).mapToObj(i -> String.valueOf((char) (0x4e00 + i * 7)))
                .collect(Collectors.joining());
        SearchQuery withContext = new SearchQuery(essay, cjk, "", null, null, List.of(), null, 5, 0);

        assertEquals("/guides/install", lexicalOnly.search(withContext).get(0).path(), "Lucene allows 1,024 clauses");
        assertEquals("/ja/guides/redirects", paths(query("古いURLを転送するリダイレクト" + cjk, "ja", null, null)).get(0));
    }

    @Test
    void placesPagesInTheNavigation() {
        Page fr = index.page("/fr/guides/redirects", List.of()).orElseThrow();
        assertEquals("fr", fr.language());
        assertEquals("v2", fr.version());
        assertEquals(List.of("Guides"), fr.breadcrumb());
        assertFalse(fr.hidden());
        Page legacy = index.page("v1/guides/install.mdx", List.of()).orElseThrow();
        assertEquals("v1", legacy.version());
        assertTrue(index.page("/hidden", List.of()).isEmpty(), "a page outside the navigation is not indexed");
    }

    @Test
    void searchesTheDefaultVersionAndLanguageUnlessFiltered() {
        assertEquals("/guides/install", paths(query("install the CLI", null, null, null)).get(0));
        assertEquals(List.of("/v1/guides/install"), paths(query("install the CLI", null, "v1", null)));
        assertEquals("/v1/guides/install", paths(query("install the CLI", null, null, "/v1/guides/install")).get(0),
                "the reader's page picks the version when no filter does");
        assertEquals(List.of(), paths(query("install the CLI", null, "v9", null)), "an unknown version has no pages");
    }

    @Test
    void searchesOneLanguageWithItsOwnAnalyzer() {
        assertEquals(List.of("/fr/guides/redirects"), paths(query("renommer un fichier", "fr", null, null)),
                "French stemming: renommer matches renommé");
        assertEquals(List.of("/fr/guides/redirects"), paths(query("redirection après renommage", null, null,
                "/fr/guides/redirects")), "the reader's page picks the language");
        assertEquals(List.of("/ja/guides/redirects"), paths(query("古いURLを転送したい", "ja", null, null)),
                "Japanese text without spaces is searchable");
        assertEquals(List.of("/fr/guides/redirects"), paths(query("fichuer", "fr", null, null)),
                "French is also read as 4-grams: a misspelt word still matches");
        assertEquals(List.of("/ja/guides/redirects"), paths(query("リダイレ", "ja", null, null)),
                "Japanese is also read as bigrams: a word the dictionary splits otherwise still matches");
        assertEquals(List.of(), paths(query("renommer", "de", null, null)), "a language the site lacks has no pages");
        assertTrue(paths(query("redirect", null, null, null)).stream().noneMatch(p -> p.startsWith("/fr/")),
                "English by default");
    }

    @Test
    void indexesSnippetsAndApiOperationsButNotHiddenOrIgnoredPages() {
        assertEquals("/guides/dark-mode", paths(query("moon icon palette", null, null, null)).get(0),
                "snippet text is part of the page that imports it");
        Page api = index.page("/api/get-user", List.of()).orElseThrow();
        assertEquals("GET /users/{id}", api.title(), "an OpenAPI page without a title is titled by its operation");
        assertEquals("/api/get-user", paths(query("GET users", null, null, null)).get(0));
        assertFalse(paths(query("zebra crossings", null, null, null)).contains("/hidden"), "Mintlify: out of search");
        assertTrue(index.page("/drafts/secret", List.of()).isEmpty());
        assertEquals(List.of(), paths(query("unicorns", null, null, null)).stream()
                .filter(p -> p.contains("draft")).toList());
    }

    @Test
    void returnsEachPageOnceWithItsBestSectionsAndRelativeScores() {
        List<SearchHit> hits = index.search(query("forward old URLs with wildcards slug", null, null, null));
        assertEquals("/guides/redirects", hits.get(0).path());
        assertEquals(1, hits.stream().filter(h -> h.path().equals("/guides/redirects")).count());
        assertEquals("wildcards", hits.get(0).anchor());
        assertEquals("https://docs.example.com/guides/redirects#wildcards", hits.get(0).sectionUrl());
        assertEquals(1.0, hits.get(0).score());
        assertTrue(hits.stream().allMatch(h -> h.score() > 0 && h.score() <= 1));

        SearchQuery strict = new SearchQuery("forward old URLs with wildcards slug", "", "", null, null, List.of(),
                null, 5, 1);
        assertEquals(1, index.search(strict).size(), "a threshold of 1 keeps only the best page");
    }

    @Test
    void prefersPagesInTheReadersNavigationGroup() {
        // two pages with the same words, one in each group: the reader's group decides
        assertEquals("/api/quotas", paths(query("quotas per hour", null, null, "/api/get-user")).get(0));
        assertEquals("/guides/quotas", paths(query("quotas per hour", null, null, "/guides/install")).get(0));
    }

    @Test
    void completesShortFollowUpsWithEarlierQuestions() {
        SearchQuery followUp = new SearchQuery("and for v1?", "", "How do I install the CLI?", null, "v1", List.of(),
                null, 5, 0);
        assertEquals("/v1/guides/install", paths(followUp).get(0));
        SearchQuery alone = new SearchQuery("and for v1?", "", "", null, "v1", List.of(), null, 5, 0);
        assertTrue(lexicalOnly.search(alone).isEmpty(), () -> "without the earlier question there is nothing to find: "
                + lexicalOnly.search(alone).stream().map(h -> h.path() + " " + h.content()).toList());
    }

    @Test
    void findsByMeaningWhatSharesNoWordWithTheQuestion() {
        // 0.35 by meaning, above the 0.25 a page found by meaning alone needs (unrelated texts: up to about 0.24)
        String question = "visitors following stale bookmarks should reach relocated articles";
        assertFalse(lexicalOnly.search(query(question, null, null, null)).stream()
                .anyMatch(h -> h.path().equals("/guides/redirects")), "no word in common");
        assertEquals("/guides/redirects", paths(query(question, null, null, null)).get(0));
    }

    @Test
    void reindexingEmbedsOnlyTheSectionsThatChanged() throws Exception {
        Docs docs = DocsFolder.read("classpath:fixture-docs");
        assertTrue(index.embeddedCount() > 5);
        assertEquals(0, DomainIndex.build(docs, "", true, index.vectors()).embeddedCount(), "nothing changed");

        List<Page> edited = docs.pages().stream().map(page -> !page.path().equals("/guides/install") ? page
                : new Page(page.path(), page.title(), page.description(), page.keywords(), page.content(),
                        List.of(new Section("", List.of(), "Install the CLI with pnpm.", "")), page.language(),
                        page.version(), page.breadcrumb(), page.hidden(), page.groups())).toList();
        DomainIndex afterEdit = DomainIndex.build(new Docs(docs.navigation(), edited, docs.instructions()), "", true,
                index.vectors());
        assertEquals(1, afterEdit.embeddedCount(), "only the edited section");
        assertEquals("/guides/redirects", afterEdit.search(query("visitors following stale bookmarks should reach "
                + "relocated articles", null, null, null)).get(0).path(), "reused vectors still find by meaning");
        assertTrue(afterEdit.search(query("zzqx wibble frobnicate", null, null, null)).isEmpty(),
                "no word matched and nothing close in meaning: nothing found, a gap");
    }

    @Test
    void findsPagesByAnyWayOfWritingTheirPath() {
        for (String path : List.of("/guides/redirects", "guides/redirects.mdx", "/guides/redirects/",
                "https://docs.example.com/guides/redirects#wildcards")) {
            assertEquals("/guides/redirects", index.page(path, List.of()).orElseThrow().path(), path);
        }
        assertTrue(index.page("/nope", List.of()).isEmpty());
    }
}
