package dev.docsassistant.search;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PageParserTest {

    private static final String MDX = """
            ---
            title: "Redirects"
            description: Send readers from old paths to new ones.
            ---
            import { Banner } from '/snippets/banner.mdx';

            Intro text with `inline code`.

            ## Wildcard redirects

            <Steps>
              <Step title="Open docs.json">
                Add a **redirects** array.
                ```json
                { "redirects": [{ "source": "/old/:slug*", "destination": "/new/:slug*" }] }
                ```
              </Step>
            </Steps>
            {/* a comment the reader never sees */}
            <!-- nor this comment -->

            ### Nested heading
            <Note>Keep <b>old</b> links working.</Note>
            <Card
              title="Wildcards guide"
              href="/create/wildcards"
            >
              More patterns.
            </Card>
            """;

    @Test
    void readsTitleSectionsAnchorsAndCodeFromMdx() {
        Page page = PageParser.parse("/create/redirects", MDX);
        assertEquals("Redirects", page.title());
        assertEquals("Send readers from old paths to new ones.", page.description());

        List<Section> sections = page.sections();
        assertEquals(3, sections.size(), sections.toString());
        assertEquals("", sections.get(0).anchor());
        assertEquals("Intro text with `inline code`.", sections.get(0).text());

        Section wildcards = sections.get(1);
        assertEquals("wildcard-redirects", wildcards.anchor());
        assertEquals(List.of("Wildcard redirects"), wildcards.headings());
        assertTrue(wildcards.text().contains("Open docs.json"), "a component's title is kept: " + wildcards);
        assertTrue(wildcards.text().contains("Add a redirects array."), wildcards.text());
        assertTrue(wildcards.code().contains("\"source\": \"/old/:slug*\""), "indented fences stay code");
        assertFalse(wildcards.text().contains("<Step"), wildcards.text());

        Section nested = sections.get(2);
        assertEquals(List.of("Wildcard redirects", "Nested heading"), nested.headings());
        assertEquals("Keep old links working. Wildcards guide. More patterns.", nested.text(),
                "a tag whose attributes span lines is unwrapped too");
        assertFalse(page.sections().toString().contains("comment"), "JSX and HTML comments and imports are dropped");
        assertFalse(page.sections().toString().contains("import"));
    }

    @Test
    void takesTheTitleFromTheFirstHeadingWithoutFrontmatter() {
        Page page = PageParser.parse("/plain", "# Plain page\n\nBody.\n");
        assertEquals("Plain page", page.title());
        assertEquals("Body.", page.sections().get(0).text());
    }

    @Test
    void readsTheGroupsThatMaySeeAPage() {
        assertEquals(List.of(), PageParser.parse("/public", MDX).groups(), "no groups: public");
        assertEquals(List.of("admin", "billing"),
                PageParser.parse("/a", "---\ngroups: [\"admin\", \" billing \", \"\", admin]\n---\nBody.\n").groups());
        assertEquals(List.of("admin"), PageParser.parse("/b", "---\ngroups: admin\n---\nBody.\n").groups(),
                "a single name is a list of one");
    }

    @Test
    void routesPagesLikeMintlify() {
        assertEquals("/create/redirects", DocsFolder.route("create/redirects.mdx"));
        assertEquals("/guides", DocsFolder.route("guides/index.mdx"));
        assertEquals("/", DocsFolder.route("index.md"));
    }

    @Test
    void aTableKeepsOneRowALineAndListItemsTheirBullets() {
        Page page = PageParser.parse("/limits", """
                # Limits

                | Property | Default |
                | --- | --- |
                | `ttl` | 1440 |

                - first item
                - second item
                """);

        assertEquals("| Property | Default |\n| --- | --- |\n| `ttl` | 1440 |\n- first item\n- second item",
                page.sections().get(0).text());
    }

    /** Every character a reader would copy, as the page wrote it (issue 54): the fixture AsWrittenTest serves. */
    static String asWritten() throws IOException {
        try (InputStream page = PageParserTest.class.getResourceAsStream("/fixture-docs-as-written/tokens.mdx")) {
            return new String(page.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void keepsInlineCodeLinksAndFencedBlocksAsWritten() throws IOException {
        Section revoke = PageParser.parse("/tokens", asWritten()).sections().get(0);

        assertEquals("Run `gadgetron token revoke <id>` with the id from `{domain}/tokens`, or set "
                + "`$GADGETRON_TOKEN`.\nKeys are stored as `sha256:<hex>`; see [the key guide](/guides/keys#hashed) "
                + "and this.", revoke.text(), "code spans keep their backticks and contents, links their targets, "
                + "components become their text");
        assertEquals("""
                ```bash Terminal
                export GADGETRON_URL=https://{domain}
                gadgetron token revoke <id>
                ```

                ```yaml values.yaml
                token:
                  id: <id>
                ```""", revoke.code(), "each block on its own, with its language and title");
        assertEquals("Run gadgetron token revoke <id> with the id from {domain}/tokens, or set $GADGETRON_TOKEN.\n"
                + "Keys are stored as sha256:<hex>; see the key guide and this.", revoke.words(),
                "search weighs the words a reader reads");
        assertFalse(revoke.codeLines().contains("```"), revoke.codeLines());
        assertEquals("[a](<https://w.org/A_(b)>) ``a `b` c`` x", PageParser.parse("/p", "[a](https://w.org/A_(b)) "
                + "``a `b` c`` x\n").sections()
                .get(0).text(), "a target with parentheses and a span holding backticks stay valid Markdown");
        assertEquals("Use `{/* note */}`, not `<!-- note -->`.  A tag goes: .\n\n```jsx\n{/* kept */}\n```",
                PageParser.parse("/p", """
                        Use `{/* note */}`, not `<!-- note -->`. {/* dropped */} A tag goes: <img src={`/${name}.png`} />.

                        ```jsx
                        {/* kept */}
                        ```
                        """).sections().stream().map(s -> s.text() + "\n\n" + s.code()).findFirst().orElseThrow(),
                "comments shown in code are code; a code span inside a tag goes with the tag");
    }

    @Test
    void aLineOfManyCodeSpansAndTagsParsesInLinearTime() {
        String line = "`<id>` <Tip>x</Tip> ".repeat(40_000);
        Page page = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> PageParser.parse("/p", line + "\n"));
        String text = page.sections().get(0).text();
        assertTrue(text.startsWith("`<id>` x `<id>` x"), text.substring(0, 40));
    }
}
