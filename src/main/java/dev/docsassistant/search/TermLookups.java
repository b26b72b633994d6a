package dev.docsassistant.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import dev.docsassistant.ground.Caches;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.miscellaneous.LimitTokenCountFilter;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.BlendedTermQuery;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
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

    /** The most heap one language's entries take: ~270 bytes each, so ~4,000 of a site's words in one field each. */
    private static final long TERMS_BYTES = 1L << 20;
    /** The most heap one language's kept rarities take: ~80 bytes each, a few thousand of the site's words. */
    static final long RARITIES_BYTES = 256L << 10;

    /**
     * The most tokens of one text searched in one field: a question is a few dozen words (a long Chinese or Japanese
     * one, a hundred bigrams), and a query of question, context and earlier questions in up to six fields must stay
     * within {@link #MAX_CLAUSES}.
     */
    static final int MAX_TOKENS = 256;

    /**
     * A term scores by the field where it matches best, plus this share of its score in the others: a word in a
     * page's title and again in its prose is a better match than in either alone, but not five fields' worth.
     */
    private static final float OTHER_FIELDS_SHARE = 0.1f;

    /** Lucene's limit on a query's clauses, raised from 1,024 for {@link #MAX_TOKENS}: 3 × 6 × 256 plus the filters. */
    static final int MAX_CLAUSES = 5_000;

    static {
        IndexSearcher.setMaxClauseCount(Math.max(IndexSearcher.getMaxClauseCount(), MAX_CLAUSES));
    }

    private final IndexSearcher searcher;
    /**
     * Entries of terms the index holds: a term no section has is looked up each time, so a client's made-up words
     * neither stay in memory nor push the site's words out.
     */
    private final Cache<Term, TermStates> entries;

    /** Terms {@link #acrossFields} leaves out: {@link Analyzers#questionWords}. */
    private final Set<String> questionWords;

    /** The fields whose document frequencies make a term's {@link #rarity}, and the rarities of terms the index holds. */
    private final Collection<String> rarityFields;
    final Cache<String, Double> rarities;

    TermLookups(Analyzer analyzer, IndexSearcher searcher, Set<String> questionWords, Collection<String> rarityFields) {
        super(analyzer);
        this.searcher = searcher;
        this.questionWords = questionWords;
        this.rarityFields = List.copyOf(rarityFields);
        this.rarities = Caches.<String, Double>weighed(RARITIES_BYTES,
                (term, rarity) -> 2L * Caches.OBJECT + Caches.bytes(term)).build();
        long leafStates = (long) searcher.getIndexReader().leaves().size() * (Caches.REFERENCE + Caches.OBJECT);
        this.entries = Caches.<Term, TermStates>weighed(TERMS_BYTES,
                (term, states) -> 4L * Caches.OBJECT + term.bytes().length + leafStates).build();
    }

    /** A text's first {@link #MAX_TOKENS} tokens: a longer one (an essay, a pasted log) adds nothing but cost. */
    @Override
    protected Query createFieldQuery(TokenStream source, BooleanClause.Occur operator, String field, boolean quoted,
            int phraseSlop) {
        return super.createFieldQuery(new LimitTokenCountFilter(source, MAX_TOKENS), operator, field, quoted,
                phraseSlop);
    }

    /**
     * The text's {@link #terms} but the question words, each searched in all the
     * fields at once, at each field's boost; or null if no section has any of them. A term weighs by its
     * rarity across the fields, its largest document frequency in any of them, not by its rarity in each: summed
     * per field, a common word in short fields (a title, headings) weighed as much as a rare one in the prose, and
     * a question's everyday words matching page titles outranked the one word only the answering section holds
     * (Elasticsearch's {@code cross_fields} does the same).
     */
    Query acrossFields(String text, Map<String, Float> fields) {
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        boolean any = false;
        for (String term : terms(text)) {
            if (questionWords.contains(term)) {
                continue;
            }
            BlendedTermQuery.Builder blended = new BlendedTermQuery.Builder()
                    .setRewriteMethod(new BlendedTermQuery.DisjunctionMaxRewrite(OTHER_FIELDS_SHARE));
            boolean found = false;
            for (Map.Entry<String, Float> field : fields.entrySet()) {
                Term inField = new Term(field.getKey(), term);
                TermStates entry = entry(inField);
                // only where it occurs: blending lends the term a frequency in every field it is given, and in a
                // field no section has (no code anywhere) Lucene then fails to score it
                if (entry.docFreq() > 0) {
                    blended.add(inField, field.getValue(), entry);
                    found = true;
                }
            }
            if (found) {
                query.add(blended.build(), BooleanClause.Occur.SHOULD);
                any = true;
            }
        }
        return any ? query.build() : null;
    }

    /** The text's distinct terms but the question words: what it is about. */
    Set<String> subject(String text) {
        Set<String> subject = new HashSet<>(terms(text));
        subject.removeAll(questionWords);
        return subject;
    }

    /**
     * How rare the term is among the sections: BM25's inverse document frequency of its largest document frequency
     * in any of the {@code fields} (as {@link #acrossFields} weighs it), so the question's distinctive word
     * ("Ollama") outweighs its everyday ones ("model", "answer"). Kept for a term the index holds, as its entries are
     * (a field without the term is looked up again each time): a search asks it for each of its words.
     */
    double rarity(String term) {
        Double kept = rarities.getIfPresent(term);
        if (kept != null) {
            return kept;
        }
        long holding = 0;
        for (String field : rarityFields) {
            holding = Math.max(holding, entry(new Term(field, term)).docFreq());
        }
        int sections = searcher.getIndexReader().numDocs();
        double rarity = Math.log(1 + (sections - holding + 0.5) / (holding + 0.5));
        if (holding > 0) {
            rarities.put(term, rarity);
        }
        return rarity;
    }

    /** The text's first {@link #MAX_TOKENS} terms, as the prose is analyzed. */
    List<String> terms(String text) {
        return Analyzers.terms(getAnalyzer(), text, MAX_TOKENS);
    }

    @Override
    protected Query newTermQuery(Term term, float boost) {
        Query query = new TermQuery(term, entry(term));
        return boost == BoostAttribute.DEFAULT_BOOST ? query : new BoostQuery(query, boost);
    }

    private TermStates entry(Term term) {
        TermStates entry = entries.getIfPresent(term);
        if (entry == null) {
            entry = lookUp(term);
            if (entry.docFreq() > 0) {
                entries.put(term, entry);
            }
        }
        return entry;
    }

    private TermStates lookUp(Term term) {
        try {
            return TermStates.build(searcher, term, true);
        } catch (IOException e) {
            throw new UncheckedIOException("In-memory index failed to read", e);
        }
    }
}
