package dev.docsassistant.search;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Which section of a page is shown first, as a reader scanning its headings would pick it, on a site written for it:
 * "one", "simple", "default", "answer" and "model" are in nearly every section, "Ollama" in two sections of one
 * page, one of them under a heading of its own. Words only, so nothing but the words and the headings decide.
 */
class DomainIndexHeadingsTest {

    @TempDir
    static Path site;
    private static DomainIndex index;

    @BeforeAll
    static void build() throws Exception {
        Files.writeString(site.resolve("models.mdx"), """
                ---
                title: Models
                ---

                Each topic has one simple default answer model.

                ## The default answer model

                The default answer model quotes the docs. Ollama can answer instead: Ollama is a local server, and
                Ollama's models answer in its place.

                ## Ollama

                Point the base URL at the server.

                ## One simple setting

                One simple setting for every topic.
                """);
        for (String topic : List.of("pricing", "analytics", "languages", "themes", "search", "widgets")) {
            Files.writeString(site.resolve(topic + ".mdx"), "---\ntitle: " + topic + "\n---\n\nOne simple default answer model for " + topic
                    + ".\n\n## One simple " + topic + " setting\n\nThe default model answers " + topic
                    + " questions, one simple way.\n");
        }
        index = DomainIndex.build(DocsFolder.read(site.toString()), "https://docs.example.com", false, Map.of());
    }

    /**
     * Counted, "The default answer model" held three of the five words of the first question and "Ollama" one: the
     * section that merely mentions Ollama in its prose was shown; "One simple setting" held two of the three words
     * of the last and took it. Each word now counts by its rarity.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "How do I answer with Ollama instead of the default model? | a heading naming the rare word wins",
            "Ollama                                                     | the question alone",
            "Ollama, in one simple way?                                 | filler words do not move it"})
    void theSectionWhoseHeadingNamesTheQuestionsRareWordIsShownFirst(String question, String why) {
        SearchHit first = index.search(SearchQuery.of(question, 3)).get(0);
        assertEquals("/models#ollama", first.path() + "#" + first.anchor(), why);
    }
}
