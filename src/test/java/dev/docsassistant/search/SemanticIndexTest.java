package dev.docsassistant.search;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Long sections are embedded as passages, so one sentence deep in a long page is still found by meaning; a question
 * is embedded once.
 */
class SemanticIndexTest {

    /** A troubleshooting page of six accordions: one section, its last answer some 1,500 characters in. */
    private static final String TROUBLESHOOTING = """
            ---
            title: "Troubleshooting"
            description: "Common problems and their fixes."
            ---

            <AccordionGroup>
              <Accordion title="The build fails with an unknown component error">
                A page uses a component that the site lacks. Check the spelling of the tag, and make sure that custom
                components are exported from a file in the components folder. Component names are case-sensitive: a
                tag written in lower case is read as plain HTML and its children are rendered without any styling.
              </Accordion>
              <Accordion title="Images are broken after deployment">
                Image paths are resolved from the root of the repository, not from the page that references them.
                Move the images into the images folder, reference them with a leading slash, and keep file names free
                of spaces. Files above twenty megabytes are skipped by the uploader and show as broken images.
              </Accordion>
              <Accordion title="The editor shows a merge conflict">
                Someone changed the same lines on the main branch while you were editing. Open the conflict view,
                keep the version you want for each block, and publish again; the editor never overwrites silently.
              </Accordion>
              <Accordion title="Code blocks lose their highlighting">
                Highlighting depends on the language named after the opening fence. Use a language identifier that
                the highlighter knows, such as javascript, python or bash, with no space between fence and name.
              </Accordion>
              <Accordion title="Tables overflow on phones">
                Wide tables scroll sideways on small screens. Split a table with many columns into two, or turn its
                rows into a list of definitions, so that each row fits the width of a phone held upright.
              </Accordion>
              <Accordion title="Fonts fall back to the default">
                Readers in mainland China may see the default typeface, because the font CDN is blocked there.
                Self-host the font files in the repository and reference them from the theme settings instead.
              </Accordion>
            </AccordionGroup>
            """;

    @TempDir
    Path root;

    @Test
    void findsOneSentenceDeepInALongSection() throws IOException {
        write("docs.json", """
                {"navigation": {"groups": [{"group": "Guides", "pages": ["troubleshooting", "theme", "install"]}]}}""");
        write("troubleshooting.mdx", TROUBLESHOOTING);
        write("theme.mdx", "---\ntitle: Theme\n---\n\nPick the primary colour and the logo shown in the header.\n");
        write("install.mdx", "---\ntitle: Install\n---\n\nInstall the command line tool with npm.\n");
        Docs docs = DocsFolder.read(root);
        Section section = docs.pages().stream().filter(page -> page.path().equals("/troubleshooting")).findFirst()
                .orElseThrow().sections().get(0);
        assertTrue(section.text().indexOf("mainland China") > 1_200, "past what the model reads of a whole section");

        String question = "Why does the typography look different for visitors in Beijing?";
        assertTrue(DomainIndex.build(docs, "", false, Map.of()).search(SearchQuery.of(question, 5)).isEmpty(),
                "no word in common");
        assertEquals("/troubleshooting", DomainIndex.build(docs, "", true, Map.of()).search(SearchQuery.of(question, 5))
                .get(0).path());
    }

    @Test
    void embedsARepeatedOrConcurrentQuestionOnce() throws Exception {
        String question = "Which fonts are blocked for readers in mainland China?";
        var first = SemanticIndex.embed(question);
        var concurrent = SemanticIndex.embed(question);
        assertSame(first.get(), concurrent.get(), "one embedding for both askers");
        assertSame(first.get(), SemanticIndex.embed(question).get(), "and none for the next");
        assertNotSame(first.get(), SemanticIndex.embed(question + " ").get(), "keyed by the exact text");
    }

    @Test
    void scansFourVectorsAtATimeToExactlyTheSimilaritiesOneAtATime() {
        Random random = new Random(7);
        float[] query = vector(random);
        for (int count = 0; count <= 9; count++) {
            List<float[]> vectors = Stream.generate(() -> vector(random)).limit(count).toList();
            double[] similarities = SemanticIndex.similarities(query, vectors);
            assertEquals(count, similarities.length);
            for (int i = 0; i < count; i++) {
                assertEquals(SemanticIndex.dot(query, vectors.get(i)), similarities[i], "vector " + i + " of " + count);
            }
        }
    }

    private static float[] vector(Random random) {
        float[] vector = new float[384];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = (float) random.nextGaussian() / 20;
        }
        return vector;
    }

    @Test
    void embedsEveryLineOfASectionOnceInPassagesUnderItsHeader() throws IOException {
        write("troubleshooting.mdx", TROUBLESHOOTING);
        Page page = DocsFolder.read(root).pages().get(0);
        List<String> passages = SemanticIndex.passages(page, page.sections().get(0));

        assertTrue(passages.size() > 2, "a long section is cut into several passages");
        String header = "Troubleshooting. Common problems and their fixes. ";
        for (String passage : passages) {
            assertTrue(passage.startsWith(header), passage);
            assertTrue(passage.length() <= header.length() + SemanticIndex.PASSAGE_CHARS, passage);
        }
        assertEquals(page.sections().get(0).text(), String.join("\n", passages.stream()
                .map(passage -> passage.substring(header.length())).toList()), "nothing left out, nothing repeated");
    }

    @Test
    void everyPassageCarriesThePageDescriptionNotOnlyTheIntro() throws IOException {
        write("cli.mdx", """
                ---
                title: "Install the CLI"
                description: "Preview your documentation locally before you deploy it."
                ---

                Install the command line tool with npm.

                ## Update

                Run the update command to get the latest components.
                """);
        Page page = DocsFolder.read(root).pages().get(0);

        assertEquals(List.of("Install the CLI › Update. Preview your documentation locally before you deploy it. "
                + "Run the update command to get the latest components."),
                SemanticIndex.passages(page, page.sections().get(1)));
    }

    private void write(String file, String text) throws IOException {
        Files.writeString(root.resolve(file), text);
    }
}
