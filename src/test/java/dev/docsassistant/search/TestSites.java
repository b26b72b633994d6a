package dev.docsassistant.search;

import java.nio.file.Files;
import java.nio.file.Path;

/** Sites written for a test: a page is a file of frontmatter (its title) and Markdown. */
final class TestSites {

    private TestSites() {
    }

    /** Writes {@code path} (folders created) under {@code site} with the title and text. */
    static void page(Path site, String path, String title, String text) throws Exception {
        Path file = site.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "---\ntitle: \"" + title + "\"\n---\n\n" + text + "\n");
    }

    /** The first hit's route and anchor ({@code /page#section}, or {@code /page} for its text before any heading). */
    static String first(DomainIndex index, String question) {
        SearchHit first = index.search(SearchQuery.of(question, 3)).get(0);
        return first.path() + (first.anchor().isEmpty() ? "" : "#" + first.anchor());
    }
}
