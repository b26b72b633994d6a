package dev.docsassistant.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.QueryBuilder;

/**
 * One domain's documentation in an in-memory Lucene index: a document per section, with the page title, the
 * heading trail, the prose and the code as separately boosted fields. Immutable once built, so searches need no
 * locking and a rebuilt index can simply replace it.
 */
public final class DomainIndex {

    /** Field boosts: a word in a title says more about a page than the same word in its code. */
    private static final Map<String, Float> FIELDS = Map.of("title", 4f, "headings", 2.5f, "body", 1f, "code", 0.5f);
    /** Sections read per page asked for, so that pages with many matching sections do not crowd out others. */
    private static final int SECTIONS_PER_PAGE = 8;

    private final Analyzer analyzer = new EnglishAnalyzer();
    private final IndexSearcher searcher;
    private final String siteUrl;
    private final int pageCount;
    private final int sectionCount;

    private DomainIndex(IndexSearcher searcher, String siteUrl, int pageCount, int sectionCount) {
        this.searcher = searcher;
        this.siteUrl = siteUrl;
        this.pageCount = pageCount;
        this.sectionCount = sectionCount;
    }

    public static DomainIndex build(List<Page> pages, String siteUrl) throws IOException {
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        int sections = 0;
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new EnglishAnalyzer()))) {
            for (Page page : pages) {
                for (Section section : page.sections()) {
                    writer.addDocument(document(page, section));
                    sections++;
                }
            }
        }
        return new DomainIndex(new IndexSearcher(DirectoryReader.open(directory)), siteUrl, pages.size(), sections);
    }

    private static Document document(Page page, Section section) {
        Document doc = new Document();
        doc.add(new StringField("path", page.path(), Field.Store.YES));
        doc.add(new StoredField("anchor", section.anchor()));
        doc.add(new TextField("title", page.title(), Field.Store.YES));
        String headings = String.join(" › ", section.headings());
        doc.add(new TextField("headings", headings, Field.Store.YES));
        String body = section.anchor().isEmpty() && !page.description().isEmpty()
                ? page.description() + "\n" + section.text() : section.text();
        doc.add(new TextField("body", body, Field.Store.YES));
        doc.add(new TextField("code", section.code(), Field.Store.YES));
        return doc;
    }

    /** The best {@code pageSize} pages for the query, each with its best section, best first. */
    public List<SearchHit> search(String queryText, int pageSize) {
        Query query = query(queryText);
        if (query == null) {
            return List.of();
        }
        try {
            Map<String, SearchHit> pages = new LinkedHashMap<>();
            for (ScoreDoc scored : searcher.search(query, pageSize * SECTIONS_PER_PAGE).scoreDocs) {
                Document doc = searcher.storedFields().document(scored.doc);
                String path = doc.get("path");
                if (!pages.containsKey(path)) {
                    pages.put(path, hit(doc, scored.score));
                    if (pages.size() == pageSize) {
                        break;
                    }
                }
            }
            return new ArrayList<>(pages.values());
        } catch (IOException e) {
            throw new UncheckedIOException("In-memory index failed to read", e);
        }
    }

    private Query query(String text) {
        QueryBuilder builder = new QueryBuilder(analyzer);
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        boolean any = false;
        for (Map.Entry<String, Float> field : FIELDS.entrySet()) {
            Query terms = builder.createBooleanQuery(field.getKey(), text, BooleanClause.Occur.SHOULD);
            if (terms != null) {
                query.add(new BoostQuery(terms, field.getValue()), BooleanClause.Occur.SHOULD);
                any = true;
            }
        }
        return any ? query.build() : null;
    }

    private SearchHit hit(Document doc, float score) {
        String path = doc.get("path");
        return new SearchHit(path, doc.get("anchor"), siteUrl + path, doc.get("title"), doc.get("headings"),
                doc.get("body"), doc.get("code"), score);
    }

    public int pageCount() {
        return pageCount;
    }

    public int sectionCount() {
        return sectionCount;
    }
}
