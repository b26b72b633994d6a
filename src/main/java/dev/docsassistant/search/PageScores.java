package dev.docsassistant.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Passages' similarities to a question summed up per page: a page scores its best passage plus
 * {@link #SECOND_PASSAGE_WEIGHT} of its second best. A page that is close to the question in two places is more
 * likely about it than one that shares a single sentence with it, as a general page (a changelog, a long guide)
 * often does. On eval-dev, weights from 0.25 to 1 give the same figures but for one hard question, in the top five
 * from 0.4 to 0.6.
 */
final class PageScores {

    static final double SECOND_PASSAGE_WEIGHT = 0.5;

    /** A page's two best passages so far: the best one's section and similarity, the second's similarity. */
    private static final class Best {
        final int page;
        int section;
        double first;
        double second = Double.NaN;
        /** Each section's closest passage, for choosing the section to quote by meaning. */
        final Map<Integer, Double> sections = new HashMap<>(4);

        Best(int page, int section, double similarity) {
            this.page = page;
            this.section = section;
            this.first = similarity;
            sections.put(section, similarity);
        }

        double score() {
            return Double.isNaN(second) ? first : first + SECOND_PASSAGE_WEIGHT * second;
        }
    }

    private final Map<Integer, Best> byPage = new HashMap<>();

    /** One passage of the page, in the section, at this similarity to the question. */
    void add(int page, int section, double similarity) {
        Best best = byPage.get(page);
        if (best == null) {
            byPage.put(page, new Best(page, section, similarity));
            return;
        }
        best.sections.merge(section, similarity, Math::max);
        if (similarity > best.first) {
            best.second = best.first;
            best.first = similarity;
            best.section = section;
        } else if (Double.isNaN(best.second) || similarity > best.second) {
            best.second = similarity;
        }
    }

    /** The best pages, best first, each with its best passage's section and each section's closest passage. */
    List<SemanticIndex.PageMatch> best(int limit) {
        List<Best> pages = new ArrayList<>(byPage.values());
        pages.sort((a, b) -> Double.compare(b.score(), a.score()));
        return pages.stream().limit(limit).map(best -> new SemanticIndex.PageMatch(best.page, best.section,
                best.score(), best.first, Map.copyOf(best.sections))).toList();
    }
}
