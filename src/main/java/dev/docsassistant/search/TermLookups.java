package dev.docsassistant.search;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.BoostAttribute;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.QueryBuilder;

/**
 * Builds one language's queries with each term's entry in the index's term dictionary looked up once, not on every
 * search: finding a question's words in each field's dictionary was a fifth of a search's time, and readers'
 * questions share most of their words. The index never changes, so an entry (where the term's postings are, how
 * many sections hold it) stays valid, and scores are exactly those of a fresh lookup.
 */
final class TermLookups extends QueryBuilder {

    /** Entries kept per language, a few hundred bytes each: a site's question vocabulary in every field. */
    private static final int TERMS_KEPT = 10_000;

    private final IndexSearcher searcher;
    private final Cache<Term, TermStates> entries = Caffeine.newBuilder().maximumSize(TERMS_KEPT).build();

    TermLookups(Analyzer analyzer, IndexSearcher searcher) {
        super(analyzer);
        this.searcher = searcher;
    }

    @Override
    protected Query newTermQuery(Term term, float boost) {
        Query query = new TermQuery(term, entries.get(term, this::lookUp));
        return boost == BoostAttribute.DEFAULT_BOOST ? query : new BoostQuery(query, boost);
    }

    private TermStates lookUp(Term term) {
        try {
            return TermStates.build(searcher, term, true);
        } catch (IOException e) {
            throw new UncheckedIOException("In-memory index failed to read", e);
        }
    }
}
