package dev.docsassistant.search;

import java.util.Map;

/**
 * Which pages search and the assistant may see: Mintlify's rules ("Hidden pages", section "Search, SEO, and AI
 * indexing"), applied once, as the docs are read, so that a page left out is absent from the site search, the
 * assistant's context, the model's own searches and {@code /v1/page} alike.
 * <ul>
 *     <li>{@code searchable: false} or {@code noindex: true} in its frontmatter: out, always;</li>
 *     <li>{@code seo.indexing: "all"} in docs.json (or a folder without one, which has no navigation to hide a
 *     page from): every other page in, hidden ones included;</li>
 *     <li>{@code hidden: true} in its frontmatter: out;</li>
 *     <li>{@code hidden: false}: in wherever the navigation places it, under a hidden tab or group too;</li>
 *     <li>otherwise in if the navigation places it outside hidden tabs and groups, or in a {@code searchable: true}
 *     one ({@link Navigation#indexes}); a page not in the navigation is out.</li>
 * </ul>
 */
final class Indexing {

    private Indexing() {
    }

    static boolean indexed(String route, Map<?, ?> frontmatter, Navigation navigation) {
        if (isFalse(frontmatter.get("searchable")) || isTrue(frontmatter.get("noindex"))) {
            return false;
        }
        if (navigation.indexesAll()) {
            return true;
        }
        Object hidden = frontmatter.get("hidden");
        if (isTrue(hidden)) {
            return false;
        }
        return isFalse(hidden) ? navigation.placement(route).isPresent() : navigation.indexes(route);
    }

    /**
     * Whether llms.txt and llms-full.txt list the page (the table's {@code llms.txt} column, and "llms.txt" in
     * Mintlify's guide): as {@link #indexed}, except that {@code searchable: false} keeps a page in, and that with
     * {@code seo.indexing: "all"} every page is in, {@code noindex: true} ones too.
     */
    static boolean listed(String route, Map<?, ?> frontmatter, Navigation navigation) {
        if (navigation.indexesAll()) {
            return true;
        }
        if (isTrue(frontmatter.get("noindex")) || isTrue(frontmatter.get("hidden"))) {
            return false;
        }
        return isFalse(frontmatter.get("hidden")) ? navigation.placement(route).isPresent() : navigation.indexes(route);
    }

    private static boolean isTrue(Object value) {
        return Boolean.TRUE.equals(value) || "true".equals(value);
    }

    private static boolean isFalse(Object value) {
        return Boolean.FALSE.equals(value) || "false".equals(value);
    }
}
