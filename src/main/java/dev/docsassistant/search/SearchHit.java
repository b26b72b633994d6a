package dev.docsassistant.search;

import java.util.List;

import dev.docsassistant.ground.Caches;

/**
 * A page the search found, with its best-matching sections, best first.
 *
 * @param url        the page's address on the documentation site
 * @param score      relevance relative to the query's best page: 1 for the best, down towards 0
 * @param similarity the cosine between the question and the page's closest passage (about 0.1 for unrelated texts,
 *                   0.5 and above for a passage about the question): the one absolute measure of how well the page
 *                   answers; NaN where the page was not compared by meaning (another language, semantic search off)
 * @param relevance  how well the page matches on a scale of its own, from 0 to 1, whatever else was found: the
 *                   larger of its similarity and the share of the question's words (weighed by rarity) its title and
 *                   shown sections hold; NaN where the search was not asked for it (no threshold, one language)
 */
public record SearchHit(Page page, List<Section> sections, String url, double score, double similarity,
        double relevance) {

    public SearchHit(Page page, List<Section> sections, String url, double score, double similarity) {
        this(page, sections, url, score, similarity, Double.NaN);
    }

    private static final int MAX_CONTENT = 2_000;

    /** The heap this hit holds beyond its page and sections, which belong to the index ({@link Caches}' estimate). */
    public long bytes() {
        return 2L * Caches.OBJECT + Caches.bytes(url) + (long) Caches.REFERENCE * sections.size();
    }

    public String path() {
        return page.path();
    }

    public String title() {
        return page.title();
    }

    /** The best section's anchor, or empty for the page's introduction. */
    public String anchor() {
        return sections.get(0).anchor();
    }

    /** The address of the best section: the page's URL with the section's anchor. */
    public String sectionUrl() {
        return anchor().isEmpty() ? url : url + "#" + anchor();
    }

    public String text() {
        return sections.get(0).text();
    }

    public String code() {
        return sections.get(0).code();
    }

    /** The best sections as one excerpt (heading trail, prose, code), bounded in length, as the widget shows it. */
    public String content() {
        StringBuilder content = new StringBuilder();
        for (Section section : sections) {
            if (content.length() > 0) {
                content.append("\n\n");
            }
            if (!section.headings().isEmpty()) {
                content.append(String.join(" › ", section.headings())).append("\n\n");
            }
            content.append(section.text());
            if (!section.code().isEmpty()) {
                content.append("\n\n").append(section.code()); // fenced, each block with its language
            }
            if (content.length() >= MAX_CONTENT) {
                String cut = content.substring(0, MAX_CONTENT) + "…";
                String open = Section.openFence(cut, line -> { });
                return open == null ? cut : cut + "\n" + open; // a block cut short is still closed
            }
        }
        return content.toString();
    }
}
