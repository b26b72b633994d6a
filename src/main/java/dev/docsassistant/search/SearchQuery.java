package dev.docsassistant.search;

import java.util.List;

/**
 * What to search a domain for.
 *
 * @param question       the reader's words, searched at full weight
 * @param context        code or text the reader attached, searched at a lower weight
 * @param earlier        the conversation's earlier questions, used when the question alone is too short to search
 * @param language       restricts results to one language; null for the language of {@code currentPath}, or the
 *                       site's default
 * @param version        restricts results to one version; null for the version of {@code currentPath}, or the
 *                       site's default
 * @param groups         the reader's user groups: restricted pages are found only by a reader in one of their
 *                       groups; empty finds public pages only
 * @param currentPath    the page the reader is on, whose neighbours get a gentle boost; may be null
 * @param pageSize       how many pages to return
 * @param scoreThreshold drops results whose relevance ({@link SearchHit#relevance}) is below it (0 keeps all)
 * @param tag            keeps only pages whose frontmatter {@code tag} is this one (any case); null for every page
 * @param boosted        whether pages' {@code boost} applies: Mintlify's in-product search (the discovery API) only,
 *                       as {@code optimize/search.mdx} says; the assistant's context is searched unboosted
 */
public record SearchQuery(
        String question, String context, String earlier, String language, String version, List<String> groups,
        String currentPath, int pageSize, double scoreThreshold, String tag, boolean boosted) {

    /** As {@code language} or {@code version}: every one (Mintlify's discovery search, the field omitted). */
    public static final String EVERY = "*";

    /** The groups in one order, so equal queries share a cache entry. */
    public SearchQuery {
        groups = groups == null ? List.of() : groups.stream().distinct().sorted().toList();
    }

    public SearchQuery(String question, String context, String earlier, String language, String version,
            List<String> groups, String currentPath, int pageSize, double scoreThreshold) {
        this(question, context, earlier, language, version, groups, currentPath, pageSize, scoreThreshold, null);
    }

    public SearchQuery(String question, String context, String earlier, String language, String version,
            List<String> groups, String currentPath, int pageSize, double scoreThreshold, String tag) {
        this(question, context, earlier, language, version, groups, currentPath, pageSize, scoreThreshold, tag,
                false);
    }

    public static SearchQuery of(String question, int pageSize) {
        return new SearchQuery(question, "", "", null, null, List.of(), null, pageSize, 0);
    }

    /**
     * A string that equal queries share and different ones do not, for caches keyed by string: each text is
     * prefixed with its length (or {@code -} for null), so no text a reader sends can read as another field.
     */
    public String key() {
        StringBuilder key = new StringBuilder(64 + question.length() + context.length() + earlier.length());
        for (String text : new String[] {question, context, earlier, language, version, currentPath, tag}) {
            append(key, text);
        }
        for (String group : groups) {
            append(key, group);
        }
        return key.append(groups.size()).append('/').append(pageSize).append('/').append(scoreThreshold)
                .append(boosted ? "/b" : "").toString();
    }

    private static void append(StringBuilder key, String text) {
        if (text == null) {
            key.append('-');
        } else {
            key.append(text.length()).append(':').append(text);
        }
    }
}
