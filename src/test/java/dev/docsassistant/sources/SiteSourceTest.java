package dev.docsassistant.sources;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import dev.docsassistant.DocsSiteServer;
import dev.docsassistant.config.DocsSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A site source against a real site on loopback: what is fetched, what is refused and what is written. */
class SiteSourceTest {

    private static final int MAX_PAGE_BYTES = 50_000;

    @TempDir
    Path dir;

    private DocsSources sources(boolean allowPrivate) throws Exception {
        return new DocsSources(dir.toString(), new SourceLimits(1 << 20, 100, MAX_PAGE_BYTES, 1 << 22, 5, 0,
                allowPrivate, 60, 1000, 100, 1 << 30, 1 << 26), true);
    }

    private static DocsSource site(DocsSiteServer server) {
        return new DocsSource(null, null, null, null, null, server.url("/"), null, null, null, null, null);
    }

    @Test
    void anLlmsTxtSiteIsReadAsMarkdownWithinItsBounds() throws Exception {
        try (DocsSiteServer server = new DocsSiteServer(true)) {
            Snapshot snapshot = sources(true).sync("site", site(server), null, () -> true);
            Path folder = snapshot.folder();
            assertTrue(Files.readString(folder.resolve("guides/install.md")).contains("Install the CLI with npm"));
            assertTrue(Files.readString(folder.resolve("guides/redirects.md")).contains("## Wildcards"));
            assertFalse(Files.exists(folder.resolve("guides/huge.md")), "a page over the cap is refused");
            assertFalse(Files.exists(folder.resolve("guides/moved.md")), "a redirect to another host is refused");
            assertFalse(Files.exists(folder.resolve("private/secret.md")), "robots.txt is honoured");
            assertFalse(server.requested().contains("/private/secret.md"), "a disallowed page is not even asked");
            assertFalse(server.requested().stream().anyMatch(path -> path.equals("/sitemap.xml")));
            assertNull(sources(true).sync("site", site(server), snapshot.revision(), () -> true), "unchanged: nothing to index");
        }
    }

    @Test
    void aSitemapSiteIsReadFromItsHtmlWithTitlesAndHeadings() throws Exception {
        try (DocsSiteServer server = new DocsSiteServer(false)) {
            Path folder = sources(true).sync("site", site(server), null, () -> true).folder();
            String redirects = Files.readString(folder.resolve("guides/redirects.md"));
            assertTrue(redirects.startsWith("---\ntitle: \"Redirects\"\n---"), redirects);
            assertTrue(redirects.contains("## Wildcards"), "headings are kept as sections: " + redirects);
            assertTrue(redirects.contains("permanent 301 status"));
            assertFalse(redirects.contains("kangaroo") || redirects.contains("ignored")
                    || redirects.contains("Footer"), "navigation, scripts and footers are dropped: " + redirects);
            try (Stream<Path> files = Files.walk(folder)) {
                assertEquals(4, files.filter(Files::isRegularFile).count(), "the four fixture guides, nothing else");
            }
        }
    }

    @Test
    void aSiteOnALoopbackAddressIsRefusedUnlessAllowed() throws Exception {
        try (DocsSiteServer server = new DocsSiteServer(true)) {
            SyncException refused = assertThrows(SyncException.class,
                    () -> sources(false).sync("site", site(server), null, () -> true));
            assertTrue(refused.getMessage().contains("loopback, link-local or private"), refused.getMessage());
            assertTrue(server.requested().isEmpty(), "not a single request was sent");
        }
    }
}
