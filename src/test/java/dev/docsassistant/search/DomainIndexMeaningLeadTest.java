package dev.docsassistant.search;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Which page comes first when meaning puts one page far ahead of every other and words put another first: a reader
 * asks about reusing content in their own words ("without copy-pasting"), which the page on copying code blocks
 * holds, in its prose and in a heading, and the page on snippets does not.
 */
class DomainIndexMeaningLeadTest {

    private static final String QUESTION = "How do I reuse the same block of content on several pages without"
            + " copy-pasting it?";

    private static DomainIndex index;
    private static DomainIndex wordsOnly;

    @BeforeAll
    static void build(@TempDir Path site) throws Exception {
        TestSites.page(site, "snippets.mdx", "Reusable snippets", """
                ## Create a snippet

                Write shared text once, in a snippet file, so the same paragraphs live in one place.

                ## Import a snippet

                Import the snippet into any page: each page that imports it shows that text, and an edit to the
                snippet updates them all.
                """);
        TestSites.page(site, "code.mdx", "Code blocks", """
                ## Copy a block

                Each code block shows a button that copies its content. Readers copy the block and paste it into
                their terminal. Hide the button with the noCopy option on the block.
                """);
        for (String topic : List.of("analytics", "themes", "search", "languages", "domains", "billing")) {
            TestSites.page(site, topic + ".mdx", topic, "How " + topic + " work: the " + topic
                    + " settings of your site, and the pages where readers see them.");
        }
        Docs docs = DocsFolder.read(site.toString());
        index = DomainIndex.build(docs, "https://docs.example.com", true, Map.of());
        wordsOnly = DomainIndex.build(docs, "https://docs.example.com", false, Map.of());
    }

    /**
     * By words the code page is first (it holds "block", "copy" and "content", its heading two of them), by meaning
     * the snippets page, far ahead of the code page: reciprocal ranks counted that lead as any other first place.
     */
    @Test
    void aPageFarAheadByMeaningComesFirst() {
        assertEquals("/code", wordsOnly.search(SearchQuery.of(QUESTION, 3)).get(0).path());
        assertEquals("/snippets", index.search(SearchQuery.of(QUESTION, 3)).get(0).path());
    }
}
