package dev.docsassistant.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import dev.docsassistant.config.Tenants;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A docs folder edited on disk is indexed again, and the index in use keeps answering until the new one is in; only
 * the edited pages are embedded again, and the kept index file is replaced.
 */
class DomainIndexesTest {

    @TempDir
    Path dir;

    private DomainIndexes indexes;

    @AfterEach
    void stop() {
        indexes.stop();
    }

    private List<String> search(String text) {
        return indexes.index("docs").search(SearchQuery.of(text, 5)).stream().map(SearchHit::path).toList();
    }

    @Test
    void reindexesChangedDocsWithoutDowntime() throws Exception {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("alpha.mdx"), "---\ntitle: Alpha\n---\n\nAlpha page about apples.\n");
        indexes = new DomainIndexes(tenants(), 1, false, "");
        indexes.start();
        await(() -> indexes.state("docs") == DomainIndexes.State.READY);
        DomainIndex first = indexes.index("docs");
        assertEquals(List.of(), search("zebra"));

        Files.writeString(docs.resolve("zebra.mdx"), "---\ntitle: Zebra\n---\n\nStripes and zebra crossings.\n");
        await(() -> search("zebra").equals(List.of("/zebra"))); // every search in between answered
        assertNotSame(first, indexes.index("docs"));
        assertEquals(List.of(), first.search(SearchQuery.of("zebra", 5)), "the old index stays as it was");

        Files.writeString(docs.resolve("docs.json"), "{ not json");
        DomainIndex beforeBreak = indexes.index("docs");
        Thread.sleep(TimeUnit.SECONDS.toMillis(3));
        assertEquals(DomainIndexes.State.READY, indexes.state("docs"));
        assertTrue(beforeBreak == indexes.index("docs"), "a broken edit keeps the last good index");
        assertEquals(List.of("/zebra"), search("zebra"));
    }

    @Test
    void liveReloadEmbedsOnlyTheEditedPageAndKeepsTheNewIndex() throws Exception {
        Path docs = dir.resolve("docs");
        Path fixture = Path.of("src/test/resources/fixture-docs");
        try (Stream<Path> files = Files.walk(fixture)) {
            for (Path file : files.toList()) {
                Files.copy(file, docs.resolve(fixture.relativize(file).toString()));
            }
        }
        Path kept = dir.resolve("index/docs/" + SemanticIndex.MODEL);
        indexes = new DomainIndexes(tenants(), 1, true,
                dir.resolve("index").toString());
        indexes.start();
        await(() -> indexes.state("docs") == DomainIndexes.State.READY);
        long first = indexes.embeddedPassages("docs");
        await(() -> Files.isDirectory(kept) && files(kept).size() == 1); // kept once it serves
        List<Path> before = files(kept);

        Files.writeString(docs.resolve("guides/install.mdx"), "---\ntitle: Install the CLI\n---\n\nUse pnpm.\n");
        await(() -> indexes.embeddedPassages("docs") > first);
        assertEquals(first + 1, indexes.embeddedPassages("docs"), "the edited page's one passage");
        await(() -> !files(kept).equals(before));
        // the reloaded index replaces the kept one: written beside it, then the kept one deleted
        await(() -> files(kept).size() == 1);
    }

    private static List<Path> files(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.toString().endsWith(".index")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out");
            Thread.sleep(50);
        }
    }

    /** One organization whose domain {@code docs} is the folder {@code docs} beside its tenants file. */
    private Tenants tenants() throws IOException {
        Files.writeString(dir.resolve("tenants.yaml"), """
                organizations:
                  - id: org
                    apiKeys: [mint_dsc_reload_test]
                    domains:
                      - id: docs
                        docs: docs
                """);
        return Tenants.load(dir.resolve("tenants.yaml").toString(), "", "mint_dsc_");
    }
}
