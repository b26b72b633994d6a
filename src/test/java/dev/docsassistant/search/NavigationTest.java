package dev.docsassistant.search;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class NavigationTest {

    @TempDir
    Path root;

    @Test
    void readsLanguagesWithRefsProductsTabsAndNestedGroups() throws IOException {
        write("docs.json", """
                {"navigation": {
                  "global": {"anchors": [{"anchor": "GitHub", "href": "https://github.com/x"}]},
                  "languages": [
                    {"language": "en", "products": [
                      {"product": "Cloud", "tabs": [
                        {"tab": "Guides", "groups": [
                          {"group": "Start", "pages": ["index", "/quickstart",
                            {"group": "CLI", "root": "cli/index", "pages": ["cli/install.mdx"]}]}
                        ]},
                        {"tab": "Changelog", "href": "https://example.com/changes"}
                      ]},
                      {"product": "Self-Host", "pages": ["quickstart", "self-host/deploy"]}
                    ]},
                    {"$ref": "./nav/fr.json", "default": true}
                  ]
                }}
                """);
        write("nav/fr.json", """
                {"language": "fr", "tabs": [{"tab": "Guides", "menu": [
                  {"item": "Démarrer", "groups": [{"$ref": "groups.json"}]},
                  {"item": "Blog", "href": "https://example.com/blog"}
                ]}]}
                """);
        write("nav/groups.json", """
                {"group": "Prise en main", "pages": ["fr/quickstart"]}
                """);

        Navigation nav = Navigation.read(root);

        assertEquals(List.of("en", "fr"), nav.languages());
        assertEquals("fr", nav.defaultLanguage(), "\"default\": true wins over the first language");
        assertEquals(List.of(), nav.versions());
        assertEquals("", nav.defaultVersion());
        assertEquals(placement("en", "", "Cloud", "Guides", "Start"), nav.placement("/").orElseThrow());
        assertEquals(placement("en", "", "Cloud", "Guides", "Start"), nav.placement("quickstart").orElseThrow(),
                "a page listed twice keeps its first placement; refs with or without a leading slash are the same");
        assertEquals(placement("en", "", "Cloud", "Guides", "Start", "CLI"), nav.placement("/cli").orElseThrow(),
                "a group's root is a page in that group");
        assertEquals(placement("en", "", "Cloud", "Guides", "Start", "CLI"),
                nav.placement("/cli/install").orElseThrow());
        assertEquals(placement("en", "", "Self-Host"), nav.placement("/self-host/deploy").orElseThrow());
        assertEquals(placement("fr", "", "Guides", "Démarrer", "Prise en main"),
                nav.placement("/fr/quickstart").orElseThrow(), "$ref files resolve relative to the referring file");
        assertFalse(nav.placement("/unlisted").isPresent());
    }

    @Test
    void languageAndVersionOfUnplacedPagesComeFromTheFirstSegment() throws IOException {
        write("docs.json", """
                {"navigation": {"versions": [
                  {"version": "v2", "dropdowns": [{"dropdown": "TypeScript", "pages": ["v2/intro"]}]},
                  {"version": "v1", "anchors": [
                    {"anchor": "Guides", "groups": [{"group": "Basics", "pages": ["v1/intro"]}]}
                  ]}
                ]}}
                """);

        Navigation nav = Navigation.read(root);

        assertEquals(List.of("v2", "v1"), nav.versions());
        assertEquals("v2", nav.defaultVersion());
        assertEquals(List.of(), nav.languages());
        assertEquals("en", nav.defaultLanguage());
        assertEquals(placement("en", "v1", "Guides", "Basics"), nav.placement("/v1/intro").orElseThrow());
        assertEquals("v1", nav.versionOf("/v1/orphan"), "unplaced: the route's first segment");
        assertEquals("v2", nav.versionOf("/other/page"), "unplaced, no version segment: the default");
        assertEquals("en", nav.languageOf("/v1/intro"));
    }

    @Test
    void readsLegacyMintJson() throws IOException {
        write("mint.json", """
                {"versions": ["v2", "v1"],
                 "tabs": [{"name": "API", "url": "api"}],
                 "navigation": [
                   {"group": "Start", "pages": ["intro", {"group": "Nested", "pages": ["nested/page"]}]},
                   {"group": "Old", "version": "v1", "pages": ["v1/intro"]},
                   {"group": "Endpoints", "pages": ["api/users"]}
                 ]}
                """);

        Navigation nav = Navigation.read(root);

        assertEquals(List.of("v2", "v1"), nav.versions());
        assertEquals("v2", nav.defaultVersion());
        assertEquals(placement("en", "v2", "Start"), nav.placement("/intro").orElseThrow());
        assertEquals(placement("en", "v2", "Start", "Nested"), nav.placement("/nested/page").orElseThrow());
        assertEquals(placement("en", "v1", "Old"), nav.placement("/v1/intro").orElseThrow());
        assertEquals(placement("en", "v2", "API", "Endpoints"), nav.placement("/api/users").orElseThrow());
    }

    @Test
    void docsJsonWinsOverMintJson() throws IOException {
        write("docs.json", "{\"navigation\": {\"pages\": [\"new\"]}}");
        write("mint.json", "{\"navigation\": [{\"group\": \"G\", \"pages\": [\"old\"]}]}");

        Navigation nav = Navigation.read(root);

        assertTrue(nav.placement("/new").isPresent());
        assertFalse(nav.placement("/old").isPresent());
    }

    @Test
    void withoutNavigationNothingIsPlaced() throws IOException {
        Navigation nav = Navigation.read(root);

        assertFalse(nav.placement("/anything").isPresent());
        assertEquals("en", nav.languageOf("/fr/anything"), "no declared languages: every page is in the default");
        assertEquals("", nav.versionOf("/v2/anything"));
    }

    @Test
    void refCyclesStop() throws IOException {
        write("docs.json", "{\"navigation\": {\"$ref\": \"a.json\"}}");
        write("a.json", "{\"groups\": [{\"group\": \"A\", \"pages\": [\"a\", {\"$ref\": \"b.json\"}]}]}");
        write("b.json", "{\"group\": \"B\", \"pages\": [\"b\", {\"$ref\": \"a.json\"}]}");

        Navigation nav = Navigation.read(root);

        assertEquals(placement("en", "", "A", "B"), nav.placement("/b").orElseThrow());
    }

    @Test
    void brokenJsonNamesTheFile() throws IOException {
        write("docs.json", "{\"navigation\": {\"$ref\": \"fr.json\"}}");
        write("fr.json", "{\"tabs\": [");

        IOException error = assertThrows(IOException.class, () -> Navigation.read(root));
        assertTrue(error.getMessage().contains("fr.json"), error.getMessage());
    }

    @Test
    void mintlifyCorpusHasFourLanguages() throws IOException {
        Navigation nav = Navigation.read(corpus("mintlify-docs"));

        assertEquals(List.of("en", "fr", "es", "zh"), nav.languages());
        assertEquals("en", nav.defaultLanguage());
        Navigation.Placement french = nav.placement("/fr/create/redirects").orElseThrow();
        assertEquals("fr", french.language());
        assertTrue(french.breadcrumb().contains("Gérer votre site"), french.toString());
        Navigation.Placement english = nav.placement("/create/redirects").orElseThrow();
        assertEquals("en", english.language());
        assertEquals(List.of("Documentation", "Manage your site"), english.breadcrumb());
        assertEquals("zh", nav.languageOf("/zh/quickstart"));
        assertEquals("es", nav.placement("/es").orElseThrow().language(), "es/index is the Spanish home page");
    }

    @Test
    void stagehandCorpusHasThreeVersions() throws IOException {
        Navigation nav = Navigation.read(corpus("stagehand-docs"));

        assertEquals(List.of("v4", "v3", "v2"), nav.versions());
        assertEquals("v4", nav.defaultVersion());
        Navigation.Placement playwright = nav.placement("/v3/integrations/playwright").orElseThrow();
        assertEquals("v3", playwright.version());
        assertEquals(List.of("TypeScript", "Integrations"), playwright.breadcrumb());
        assertEquals("v2", nav.versionOf("/v2/best-practices/user-data"), "an orphan page's version is its folder");
        assertFalse(nav.routes().stream().anyMatch(route -> route.contains(" ")), "OpenAPI operations are not pages");
    }

    @Test
    void difyCorpusHasLanguagesAndProducts() throws IOException {
        Navigation nav = Navigation.read(corpus("dify-docs"));

        assertEquals(List.of("en", "zh", "ja"), nav.languages());
        Navigation.Placement docker = nav.placement("/ja/self-host/deploy/troubleshooting/docker-issues").orElseThrow();
        assertEquals("ja", docker.language());
        assertEquals("セルフホスト", docker.breadcrumb().get(0), docker.toString());
        assertEquals(List.of("Cloud", "Learn"), nav.placement("/en/learn/key-concepts").orElseThrow().breadcrumb(),
                "listed under both products: the first placement wins");
    }

    private static Navigation.Placement placement(String language, String version, String... breadcrumb) {
        return new Navigation.Placement(language, version, List.of(breadcrumb));
    }

    private void write(String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    static Path corpus(String site) {
        Path corpus = Path.of(System.getProperty("shared.corpus", "../shared/corpus"));
        assumeTrue(Files.isDirectory(corpus.resolve(site)), "../shared/corpus not present: corpus checks skipped");
        return corpus.resolve(site);
    }
}
