package dev.docsassistant.search;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;

/**
 * The best sections of one search, ranked as Lucene's {@code TopScoreDocCollector} ranks them (by score, ties in
 * index order), each as one {@code long}: read it with {@link #doc} and {@link #score}. A domain's index holds a few
 * thousand sections and a question matches most of them, of which the search keeps hundreds: Lucene's collector
 * re-orders a heap of that size for nearly every match, and its skipping of hopeless matches (WAND) costs more than
 * it skips. Here every match is scored ({@link ScoreMode#COMPLETE}), kept as a key, and the keys are sorted once.
 */
final class TopSections implements CollectorManager<TopSections.Matches, long[]> {

    private final int count;

    TopSections(int count) {
        this.count = count;
    }

    static int doc(long section) {
        return (int) section;
    }

    static float score(long section) {
        return Float.intBitsToFloat(Integer.MAX_VALUE - (int) (section >>> 32));
    }

    @Override
    public Matches newCollector() {
        return new Matches();
    }

    @Override
    public long[] reduce(Collection<Matches> collectors) {
        long[] all = new long[collectors.stream().mapToInt(matches -> matches.size).sum()];
        int at = 0;
        for (Matches matches : collectors) {
            System.arraycopy(matches.keys, 0, all, at, matches.size);
            at += matches.size;
        }
        Arrays.sort(all);
        return all.length > count ? Arrays.copyOf(all, count) : all;
    }

    /** Every match as a key that sorts the better score first, then the lower document. */
    static final class Matches extends SimpleCollector {
        private long[] keys = new long[1024];
        private int size;
        private int docBase;
        private Scorable scorer;

        @Override
        protected void doSetNextReader(LeafReaderContext context) {
            docBase = context.docBase;
        }

        @Override
        public void setScorer(Scorable scorer) {
            this.scorer = scorer;
        }

        @Override
        public void collect(int doc) throws IOException {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
            }
            // Lucene's scores are never negative, so their bits order as they do
            keys[size++] = (long) (Integer.MAX_VALUE - Float.floatToIntBits(scorer.score())) << 32 | (docBase + doc);
        }

        @Override
        public ScoreMode scoreMode() {
            return ScoreMode.COMPLETE;
        }
    }
}
