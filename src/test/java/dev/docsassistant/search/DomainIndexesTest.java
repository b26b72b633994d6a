package dev.docsassistant.search;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import dev.docsassistant.config.Tenants;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A docs folder edited on disk is indexed again, and the index in use keeps answering until the new one is in. */
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
        Files.writeString(dir.resolve("tenants.yaml"), """
                organizations:
                  - id: org
                    apiKeys: [mint_dsc_reload_test]
                    domains:
                      - id: docs
                        docs: docs
                """);
        indexes = new DomainIndexes(Tenants.load(dir.resolve("tenants.yaml").toString(), "", "mint_dsc_"), 1, false, "");
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

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out");
            Thread.sleep(50);
        }
    }
}
