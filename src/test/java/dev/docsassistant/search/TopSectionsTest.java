package dev.docsassistant.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.Set;

import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.QueryBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The search's own collector and term lookups give exactly what Lucene's defaults give: the same sections, in the
 * same order (ties in index order), with the same scores.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TopSectionsTest {

    private static final String[] TEXTS = {"install the cli", "install the cli with npm", "deploy the site",
        "install", "the cli installs itself", "install the cli", "npm install", "install the cli", "deploy"};

    private IndexSearcher searcher;
    private EnglishAnalyzer analyzer;

    @BeforeAll
    void index() throws IOException {
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        analyzer = new EnglishAnalyzer();
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyzer))) {
            for (String text : TEXTS) {
                Document doc = new Document();
                doc.add(new TextField("body", text, Field.Store.NO));
                writer.addDocument(doc);
            }
        }
        searcher = new IndexSearcher(DirectoryReader.open(directory));
    }

    @Test
    void ranksLikeLuceneTopDocsTiesInIndexOrder() throws IOException {
        Query query = new QueryBuilder(analyzer).createBooleanQuery("body", "install the cli",
                BooleanClause.Occur.SHOULD);
        for (int count : new int[] {1, 3, 5, 7, TEXTS.length, 20}) {
            ScoreDoc[] lucene = searcher.search(query, count).scoreDocs;
            long[] ours = searcher.search(query, new TopSections(count));
            assertEquals(lucene.length, ours.length, "sections kept of " + count);
            assertArrayEquals(Arrays.stream(lucene).mapToInt(hit -> hit.doc).toArray(),
                    Arrays.stream(ours).mapToInt(TopSections::doc).toArray(), "order of " + count);
            for (int i = 0; i < ours.length; i++) {
                assertEquals(lucene[i].score, TopSections.score(ours[i]), "score " + i + " of " + count);
            }
        }
        ScoreDoc[] all = searcher.search(query, 20).scoreDocs;
        assertEquals(3, Arrays.stream(all).filter(hit -> hit.score == all[0].score).count(), "tied sections");
    }

    @Test
    void termsLookedUpOnceScoreAsFreshLookups() throws IOException {
        TermLookups lookups = new TermLookups(analyzer, searcher, Set.of(), Set.of("body"));
        QueryBuilder fresh = new QueryBuilder(analyzer);
        for (String question : new String[] {"install the cli", "deploy with npm", "install the cli again"}) {
            ScoreDoc[] expected = searcher.search(
                    fresh.createBooleanQuery("body", question, BooleanClause.Occur.SHOULD), 20).scoreDocs;
            ScoreDoc[] actual = searcher.search(
                    lookups.createBooleanQuery("body", question, BooleanClause.Occur.SHOULD), 20).scoreDocs;
            assertEquals(expected.length, actual.length, question);
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i].doc, actual[i].doc, question);
                assertEquals(expected[i].score, actual[i].score, question);
            }
        }
    }
}
