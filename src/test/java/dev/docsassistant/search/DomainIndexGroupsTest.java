package dev.docsassistant.search;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pages restricted to user groups ({@code src/test/resources/fixture-docs-groups}): a public page, one for
 * {@code admin} and one for {@code partners} or {@code resellers}. Kept apart from {@code fixture-docs}, whose word
 * statistics other tests depend on. Both with and without semantic search, which finds every page by meaning.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DomainIndexGroupsTest {

    private DomainIndex lexical;
    private DomainIndex semantic;

    @BeforeAll
    void build() throws Exception {
        Docs docs = DocsFolder.read("classpath:fixture-docs-groups");
        lexical = DomainIndex.build(docs, "https://docs.example.com", false, Map.of());
        semantic = DomainIndex.build(docs, "https://docs.example.com", true, Map.of());
    }

    private List<String> paths(boolean withMeaning, String question, List<String> groups) {
        return (withMeaning ? semantic : lexical).search(new SearchQuery(question, "", "", null, null, groups, null,
                5, 0)).stream().map(SearchHit::path).toList();
    }

    @ParameterizedTest(name = "semantic {0}")
    @ValueSource(booleans = {false, true})
    void restrictedPagesAreFoundOnlyByAReaderInOneOfTheirGroups(boolean withMeaning) {
        String question = "How do I rotate the SAML signing keys?";
        assertEquals("/admin/signing-keys", paths(withMeaning, question, List.of("admin")).get(0));
        assertEquals("/admin/signing-keys", paths(withMeaning, question, List.of("support", "admin")).get(0),
                "one group in common is enough");
        // names match exactly, as the page's frontmatter writes them
        for (List<String> groups : List.of(List.<String>of(), List.of("partners"), List.of("Admin"),
                List.of(" admin"))) {
            List<String> found = paths(withMeaning, question, groups);
            assertFalse(found.contains("/admin/signing-keys"), groups + " -> " + found);
            assertTrue(found.contains("/sso"), "public pages are found by everyone: " + found);
        }
        String pricing = "discount for resellers on annual plans";
        assertEquals("/partners/pricing", paths(withMeaning, pricing, List.of("resellers")).get(0));
        assertFalse(paths(withMeaning, pricing, List.of("admin")).contains("/partners/pricing"));
    }

    @ParameterizedTest(name = "semantic {0}")
    @ValueSource(booleans = {false, true})
    void aRestrictedPageIsAsAbsentAsAMissingOneToOthers(boolean withMeaning) {
        DomainIndex index = withMeaning ? semantic : lexical;
        assertTrue(index.page("/admin/signing-keys", List.of()).isEmpty());
        assertTrue(index.page("admin/signing-keys.mdx", List.of("partners")).isEmpty());
        assertEquals(List.of("admin"), index.page("/admin/signing-keys", List.of("admin")).orElseThrow().groups());
        assertTrue(index.page("/sso", List.of()).isPresent(), "a public page needs no group");
    }
}
