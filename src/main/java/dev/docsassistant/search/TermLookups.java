package dev.docsassistant.search;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.github.benmanes.caffeine.cache.Cache;
import dev.docsassistant.config.Caches;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.miscellaneous.LimitTokenCountFilter;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.BooleanClause;
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

    /**
     * The most tokens of one text searched in one field: a question is a few dozen words (a long Chinese or Japanese
     * one, a hundred bigrams), and a query of question, context and earlier questions in up to six fields must stay
     * within {@link #MAX_CLAUSES}.
     */
    static final int MAX_TOKENS = 256;

    /** Lucene's limit on a query's clauses, raised from 1,024 for {@link #MAX_TOKENS}: 3 × 6 × 256 plus the filters. */
    static final int MAX_CLAUSES = 5_000;

    static {
        IndexSearcher.setMaxClauseCount(Math.max(IndexSearcher.getMaxClauseCount(), MAX_CLAUSES));
    }

    private final IndexSearcher searcher;
    private final Cache<Term, TermStates> entries = Caches.builder().maximumSize(TERMS_KEPT).build();

    TermLookups(Analyzer analyzer, IndexSearcher searcher) {
        super(analyzer);
        this.searcher = searcher;
    }

    /** A text's first {@link #MAX_TOKENS} tokens: a longer one (an essay, a pasted log) adds nothing but cost. */
    @Override
    protected Query createFieldQuery(TokenStream source, BooleanClause.Occur operator, String field, boolean quoted,
            int phraseSlop) {
        return super.createFieldQuery(new LimitTokenCountFilter(source, MAX_TOKENS), operator, field, quoted,
                phraseSlop);
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
