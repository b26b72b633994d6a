package dev.docsassistant.search;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A folder read again after a sync parses only the pages whose source changed. */
class DocsFolderReuseTest {

    @TempDir
    Path root;

    private Page page(Docs docs, String path) {
        return docs.pages().stream().filter(page -> page.path().equals(path)).findFirst().orElseThrow();
    }

    @Test
    void onlyChangedPagesAreParsedAgain() throws Exception {
        Files.writeString(root.resolve("docs.json"), "{\"navigation\": {\"pages\": [\"a\", \"b\"]}}");
        Files.writeString(root.resolve("a.mdx"), "---\ntitle: A\n---\n\nAlpha.\n");
        Files.writeString(root.resolve("b.mdx"), "---\ntitle: B\n---\n\nBeta.\n");
        DocsFolder.Cache parsed = new DocsFolder.Cache();
        Docs first = DocsFolder.read(root, parsed, PageLimits.DEFAULT);
        assertEquals(2, parsed.size());

        Files.writeString(root.resolve("b.mdx"), "---\ntitle: B\n---\n\nBeta, edited.\n");
        Files.delete(root.resolve("a.mdx"));
        Files.writeString(root.resolve("docs.json"), "{\"navigation\": {\"pages\": [\"a2\", \"b\", \"c\"]}}");
        Files.writeString(root.resolve("a2.mdx"), "---\ntitle: A\n---\n\nAlpha.\n");
        Files.writeString(root.resolve("c.mdx"), "---\ntitle: C\n---\n\nGamma.\n");
        Docs second = DocsFolder.read(root, parsed, PageLimits.DEFAULT);
        assertTrue(page(second, "/b").content().contains("edited"));
        assertNotSame(page(first, "/b").sections(), page(second, "/b").sections(), "a changed page is parsed");
        assertEquals("/a2", page(second, "/a2").path(), "a moved page is parsed at its new route");
        assertEquals(3, parsed.size(), "the removed page is forgotten");

        Docs third = DocsFolder.read(root, parsed, PageLimits.DEFAULT);
        assertSame(page(second, "/c").sections(), page(third, "/c").sections(), "an unchanged page is not parsed");
        assertSame(page(second, "/b").sections(), page(third, "/b").sections());
    }

    @Test
    void aPageWhoseSnippetChangedIsReadAgain() throws Exception {
        Files.writeString(root.resolve("docs.json"), "{\"navigation\": {\"pages\": [\"a\", \"b\"]}}");
        Files.createDirectories(root.resolve("snippets"));
        Files.writeString(root.resolve("snippets/note.mdx"), "Wombats dig.\n");
        Files.writeString(root.resolve("a.mdx"), "---\ntitle: A\n---\n\nimport Note from \"/snippets/note.mdx\"\n\n<Note />\n");
        Files.writeString(root.resolve("b.mdx"), "---\ntitle: B\n---\n\nBeta.\n");
        DocsFolder.Cache parsed = new DocsFolder.Cache();
        Docs first = DocsFolder.read(root, parsed, PageLimits.DEFAULT);
        assertTrue(page(first, "/a").content().contains("Wombats dig."));

        Files.writeString(root.resolve("snippets/note.mdx"), "Numbats eat termites.\n");
        Docs second = DocsFolder.read(root, parsed, PageLimits.DEFAULT);
        assertTrue(page(second, "/a").content().contains("Numbats eat termites."), page(second, "/a").content());
        assertSame(page(first, "/b").sections(), page(second, "/b").sections(), "a page without it is not parsed");
    }

    @Test
    void aSyncWritesOnlyTheChangedPagesAndTheIndexInUseKeepsServing() throws Exception {
        Path fixture = Path.of("src/test/resources/fixture-docs");
        try (var files = Files.walk(fixture)) {
            for (Path file : files.toList()) {
                Path target = root.resolve(fixture.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        DocsFolder.Cache parsed = new DocsFolder.Cache();
        DomainIndex before = DomainIndex.build(DocsFolder.read(root, parsed, PageLimits.DEFAULT), "", false, Map.of());
        assertEquals(before.pageCount(), before.writtenPages(), "a first build writes every page");
        Files.writeString(root.resolve("guides/install.mdx"),
                "---\ntitle: \"Install the CLI\"\n---\n\nInstall the CLI with the okapi installer.\n");
        Files.delete(root.resolve("guides/dark-mode.mdx"));
        DomainIndex after = DomainIndex.build(DocsFolder.read(root, parsed, PageLimits.DEFAULT), "", false, Map.of(), before);

        assertEquals(1, after.writtenPages(), "the edited page alone is analyzed and written");
        assertEquals("/guides/install", after.search(SearchQuery.of("okapi installer", 3)).get(0).path());
        assertTrue(after.search(SearchQuery.of("dark mode theme", 5)).stream()
                .noneMatch(hit -> hit.path().equals("/guides/dark-mode")), "a removed page's documents are deleted");
        assertEquals(before.search(SearchQuery.of("redirections", 3)).get(0).path(),
                after.search(SearchQuery.of("redirections", 3)).get(0).path(), "the other pages are found as before");
        assertTrue(before.search(SearchQuery.of("okapi", 3)).isEmpty(),
                "the index in use still serves its own commit");
        assertTrue(before.search(SearchQuery.of("dark mode theme", 5)).stream()
                .anyMatch(hit -> hit.path().equals("/guides/dark-mode")));

        DomainIndex again = DomainIndex.build(DocsFolder.read(root, parsed, PageLimits.DEFAULT), "", false, Map.of(), after);
        assertEquals(0, again.writtenPages(), "nothing changed, nothing written");
        assertEquals("/guides/install", again.search(SearchQuery.of("okapi installer", 3)).get(0).path());
    }
}
