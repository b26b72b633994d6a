package dev.docsassistant.search;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.docsassistant.ground.Caches;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kept rarities: bounded in bytes, and holding only words the index has. */
class TermLookupsTest {

    private static final int SECTIONS = 60;
    private static final int WORDS_PER_SECTION = 100;

    @Test
    void theKeptRaritiesStayWithinTheirBytesAndHoldOnlyTheIndexsWords() throws IOException {
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        EnglishAnalyzer analyzer = new EnglishAnalyzer();
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyzer))) {
            for (int section = 0; section < SECTIONS; section++) {
                int first = section * WORDS_PER_SECTION;
                Document document = new Document();
                document.add(new TextField("body", IntStream.range(first, first + WORDS_PER_SECTION)
                        .mapToObj(TermLookupsTest::word)
                        .collect(Collectors.joining(" ")), Field.Store.NO));
                writer.addDocument(document);
            }
        }
        TermLookups lookups = new TermLookups(analyzer, new IndexSearcher(DirectoryReader.open(directory)), Set.of(),
                List.of("body"));

        double rare = lookups.rarity(word(0));
        // 6,000 words kept unbounded weigh about 1.4 MB by the cache's estimate
        IntStream.range(0, SECTIONS * WORDS_PER_SECTION).forEach(word -> lookups.rarity(word(word)));
        lookups.rarity("nowhere");
        lookups.rarities.cleanUp();

        long kept = lookups.rarities.asMap().keySet().stream()
                .mapToLong(term -> Caches.ENTRY + 2L * Caches.OBJECT + Caches.bytes(term)).sum();
        assertTrue(kept <= TermLookups.RARITIES_BYTES && kept > TermLookups.RARITIES_BYTES / 2,
                "kept " + kept + " bytes of rarities");
        assertFalse(lookups.rarities.asMap().containsKey("nowhere"), "a word no section has is not kept");
        assertEquals(rare, lookups.rarity(word(0)), "a rarity read again is the same, kept or not");
    }

    private static String word(int n) {
        return "w" + n;
    }
}
