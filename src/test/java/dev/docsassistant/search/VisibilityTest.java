package dev.docsassistant.search;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mintlify's table of what reaches site search and the assistant's context ("Hidden pages", section "Search, SEO,
 * and AI indexing"), a fixture page per row (fixture-docs-visibility): the pages read are those, and only those,
 * every later step (search, the model's context and its own searches, /v1/page) can see.
 */
class VisibilityTest {

    private static final Path FIXTURE = Path.of("src/test/resources/fixture-docs-visibility");
    /** Pages search and the assistant see with the default {@code seo.indexing}. */
    private static final Set<String> INDEXED = Set.of(
            "/shown", // in the navigation
            "/unhidden-in-hidden-group", // hidden: false puts a page of a hidden group back
            "/in-searchable-group", // searchable: true on a hidden group
            "/in-searchable-tab"); // searchable: true on a hidden tab
    /** Left out by default, in with {@code seo.indexing: "all"}: hidden pages. */
    private static final Set<String> HIDDEN = Set.of(
            "/hidden-page", // hidden: true
            "/not-in-nav", // not in docs.json's navigation
            "/in-hidden-group", // under a hidden group
            "/in-hidden-tab", // under a hidden tab
            "/hidden-again"); // hidden: true on a group inside a searchable hidden one
    // Never in: /noindex-page (noindex: true), /unsearchable-page (searchable: false), the root ASSISTANT.md.

    @Test
    void eachRowOfMintlifysTableDecidesWhetherThePageIsIndexed() throws Exception {
        Docs docs = DocsFolder.read(FIXTURE);
        assertEquals(new TreeSet<>(INDEXED), paths(docs));
        assertTrue(docs.pages().stream().noneMatch(Page::hidden), "every page read is placed");
    }

    /**
     * The table's {@code llms.txt} column: the indexed pages and the {@code searchable: false} one; with
     * {@code seo.indexing: "all"} every page, noindex ones too (Mintlify's llms.txt page).
     */
    @Test
    void llmsTxtListsTheSearchablePagesAndTheUnsearchableOne(@TempDir Path site) throws Exception {
        Set<String> expected = new TreeSet<>(INDEXED);
        expected.add("/unsearchable-page");
        assertEquals(expected, listed(DocsFolder.read(FIXTURE)));

        copy(FIXTURE, site);
        ObjectMapper json = new ObjectMapper();
        ObjectNode config = (ObjectNode) json.readTree(site.resolve("docs.json").toFile());
        config.putObject("seo").put("indexing", "all");
        json.writeValue(site.resolve("docs.json").toFile(), config);
        expected.addAll(HIDDEN);
        expected.add("/noindex-page");
        assertEquals(expected, listed(DocsFolder.read(site)));
    }

    private static Set<String> listed(Docs docs) {
        return docs.listed().stream().map(Page::path).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void seoIndexingAllLetsEveryHiddenPageInButNotNoindexOrUnsearchableOnes(@TempDir Path site) throws Exception {
        copy(FIXTURE, site);
        ObjectMapper json = new ObjectMapper();
        ObjectNode config = (ObjectNode) json.readTree(site.resolve("docs.json").toFile());
        config.putObject("seo").put("indexing", "all");
        json.writeValue(site.resolve("docs.json").toFile(), config);

        Set<String> expected = new TreeSet<>(INDEXED);
        expected.addAll(HIDDEN);
        assertEquals(expected, paths(DocsFolder.read(site)));
    }

    /** A plain folder of pages has no navigation to leave a page out of: all are in, as with "all". */
    @Test
    void aFolderWithoutDocsJsonHidesNoPageByTheNavigation(@TempDir Path site) throws Exception {
        copy(FIXTURE, site);
        Files.delete(site.resolve("docs.json"));
        Set<String> expected = new TreeSet<>(INDEXED);
        expected.addAll(HIDDEN);
        assertEquals(expected, paths(DocsFolder.read(site)));
    }

    @Test
    void theDocsTeamsInstructionsAreReadFromDotMintlifyFirstAndAreNoPage(@TempDir Path site) throws Exception {
        assertEquals("Always greet the reader as \"dear marmoset keeper\" and mention the instructionsword.",
                DocsFolder.read(FIXTURE).instructions());

        copy(FIXTURE, site);
        Files.delete(site.resolve(".mintlify/Assistant.md"));
        Docs root = DocsFolder.read(site);
        assertTrue(root.instructions().contains("rootinstructionsword"), "ASSISTANT.md at the root is read next");
        assertTrue(root.pages().stream().noneMatch(page -> page.content().contains("rootinstructionsword")));

        Files.delete(site.resolve("ASSISTANT.md"));
        assertEquals("", DocsFolder.read(site).instructions());
    }

    private static Set<String> paths(Docs docs) {
        return docs.pages().stream().map(Page::path).collect(Collectors.toCollection(TreeSet::new));
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }
}
