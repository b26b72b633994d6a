package dev.docsassistant.search;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnippetsTest {

    @TempDir
    Path root;

    @Test
    void inlinesImportedSnippetsAndDropsTheirImports() throws IOException {
        write("snippets/note.mdx", "---\ntitle: ignored\n---\nShared **note** text.\n");
        write("snippets/tip.md", "Tip text.");
        String page = """
                ---
                title: Page
                ---
                import Note from "/snippets/note.mdx";
                import Tip from '../snippets/tip.md'

                Intro.

                <Note />
                <Tip/>
                """;

        assertEquals("""
                ---
                title: Page
                ---

                Intro.

                Shared **note** text.
                Tip text.
                """, new Snippets(root).expand(page));
    }

    @Test
    void relativeImportsResolveFromThePageAndTheSnippet() throws IOException {
        write("guides/shared/parent.mdx", "import Child from \"./child.mdx\";\n\nParent then <Child />");
        write("guides/shared/child.mdx", "child.");

        String page = "import Parent from \"./shared/parent.mdx\";\n<Parent />";

        assertEquals("Parent then child.", new Snippets(root).expand(page, "guides/a.mdx"));
    }

    @Test
    void legacySnippetTagPropsAndIndentation() throws IOException {
        write("snippets/install.mdx", "Install {packageName}:\n```bash\nnpm i {packageName}\n```");
        String page = """
                <Steps>
                  <Step>
                    <Snippet file="install.mdx" packageName="@acme/sdk" />
                  </Step>
                </Steps>""";

        assertEquals("""
                <Steps>
                  <Step>
                    Install @acme/sdk:
                    ```bash
                    npm i @acme/sdk
                    ```
                  </Step>
                </Steps>""", new Snippets(root).expand(page), "the snippet keeps the usage's indentation");
    }

    @Test
    void leavesComponentsMissingFilesAndCodeAlone() throws IOException {
        write("snippets/banner.mdx", "export const Banner = () => null;");
        write("snippets/button.jsx", "export const Button = () => <button/>;");
        write("snippets/real.mdx", "Real.");
        String page = """
                import { Banner } from '/snippets/banner.mdx';
                import Button from "/snippets/button.jsx";
                import Missing from "/snippets/missing.mdx";
                import Real from "/snippets/real.mdx";

                <Banner />
                <Button />
                <Missing />
                Use `<Real />` in a page.

                ```mdx
                import Real from "/snippets/real.mdx";
                <Real />
                ```
                """;

        String expanded = new Snippets(root).expand(page);

        assertEquals(page.replace("import Real from \"/snippets/real.mdx\";\n\n", "\n"), expanded);
    }

    @Test
    void cyclesAndDeepNestingStop() throws IOException {
        write("snippets/a.mdx", "import B from \"/snippets/b.mdx\";\nA <B />");
        write("snippets/b.mdx", "import A from \"/snippets/a.mdx\";\nB <A />");

        String expanded = new Snippets(root).expand("import A from \"/snippets/a.mdx\";\n<A />");

        assertEquals("A B <A />", expanded, "the cycle stops where a snippet would include itself");
    }

    @Test
    void cachesSnippetFiles() throws IOException {
        write("snippets/s.mdx", "First.");
        Snippets snippets = new Snippets(root);
        assertEquals("First.", snippets.expand("<Snippet file=\"s.mdx\" />"));

        write("snippets/s.mdx", "Second.");
        assertEquals("First.", snippets.expand("<Snippet file=\"s.mdx\" />"), "read once per Snippets");
    }

    @Test
    void mintlifyCorpusComponentsPageGetsItsSnippet() throws IOException {
        Path site = NavigationTest.corpus("mintlify-docs");
        String page = Files.readString(site.resolve("components/accordions.mdx"));

        String expanded = new Snippets(site).expand(page, "components/accordions.mdx");

        assertFalse(page.contains("Font Awesome"));
        assertTrue(expanded.contains("[Font Awesome](https://fontawesome.com/icons) icon name"), expanded);
        assertFalse(expanded.contains("<IconsOptional"));
        assertFalse(expanded.contains("import IconsOptional"));
        assertTrue(PageParser.parse("/components/accordions", expanded).sections().toString().contains("Font Awesome"));
    }

    @Test
    void aPageGrowsOnlyWithinItsLimitsWhileExpanding() throws IOException {
        write("snippets/x.mdx", "{v}".repeat(10));
        write("snippets/w.mdx", "Wombat.");
        Snippets snippets = new Snippets(root, new FolderFiles(root), new PageLimits(10_000, 1 << 20, 3));
        String props = "import X from \"/snippets/x.mdx\";\n<X v=\"" + "y".repeat(2_000) + "\" />";
        PageLimits.ExceededException wide = assertThrows(PageLimits.ExceededException.class,
                () -> snippets.expand(props, "a.mdx"), "ten placeholders of 2,000 characters: 20,000");
        assertEquals("it expands past 10000 characters (assistant.search.max-page-chars)", wide.getMessage());
        String uses = "import W from \"/snippets/w.mdx\";\n" + "<W />\n".repeat(4);
        PageLimits.ExceededException many = assertThrows(PageLimits.ExceededException.class,
                () -> snippets.expand(uses, "a.mdx"));
        assertEquals("it inlines /snippets/w.mdx more than 3 times (assistant.search.max-snippet-uses)",
                many.getMessage());
        assertEquals("Wombat.\nWombat.\nWombat.\n", snippets.expand(uses.replace("<W />\n<W />\n<W />\n<W />\n",
                "<W />\n<W />\n<W />\n"), "a.mdx"), "within the bounds, as ever");
    }

    @Test
    void aSnippetThatLinksOutOfTheFolderIsNotRead(@TempDir Path outside) throws IOException {
        Path secret = Files.writeString(outside.resolve("secret.mdx"), "The platypus password.");
        Files.createDirectories(root.resolve("snippets"));
        Files.createSymbolicLink(root.resolve("snippets/leak.mdx"), secret);
        String page = "import Leak from \"/snippets/leak.mdx\";\n<Leak />";
        assertFalse(new Snippets(root).expand(page).contains("platypus"));
    }

    private void write(String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
