package dev.docsassistant.search;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * How words score across a section's fields, on a site written for it: "assistant" is the title of one page and in
 * the prose of every page, "Brave" in the prose of one. Words only, so the ranking is the words' alone. No page
 * has code or a description: fields no section has must not fail a search.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DomainIndexWordsTest {

    private Path site;
    private DomainIndex index;

    @BeforeAll
    void build(@TempDir Path site) throws Exception {
        this.site = site;
        page("assistant/index.mdx", "Assistant", "The assistant answers readers' questions in a chat.");
        page("assistant/use.mdx", "Use it", "Browsers such as Brave may block the assistant's chat window.");
        page("assistant/webhooks.mdx", "Webhooks", "Send the assistant's conversations to your webhooks.");
        for (String topic : List.of("pricing", "analytics", "languages", "themes", "search")) {
            page(topic + ".mdx", topic, "How " + topic + " works with the assistant, and with webhooks.");
        }
        index = DomainIndex.build(DocsFolder.read(site.toString()), "https://docs.example.com", false, Map.of());
    }

    private void page(String path, String title, String text) throws Exception {
        TestSites.page(site, path, title, text);
    }

    private String best(String question) {
        return index.search(SearchQuery.of(question, 3)).get(0).path();
    }

    @Test
    void aWordEveryPageHasWeighsLittleEvenWhereItIsATitle() {
        // summed per field, "assistant" weighed as a rare title word (one title of eight) and its page came first
        assertEquals("/assistant/use", best("the assistant does not show up in Brave"));
    }

    @Test
    void aWordInTheTitleStillOutweighsTheSameWordInTheProse() {
        assertEquals("/assistant/webhooks", best("webhooks"));
        assertEquals("/assistant", best("assistant"));
    }

    @Test
    void aQuestionOfWordsNoPageHasIsSearchedByItsContext() {
        SearchQuery query = new SearchQuery("what does zyxwv mean here?", "blocked in Brave", "", null, null,
                List.of(), null, 3, 0);
        assertEquals("/assistant/use", index.search(query).get(0).path());
    }
}
