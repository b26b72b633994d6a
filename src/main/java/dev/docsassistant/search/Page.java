package dev.docsassistant.search;

import java.util.Collection;
import java.util.List;

/**
 * A documentation page.
 *
 * @param path       its route: leading slash, no extension ({@code /create/redirects})
 * @param keywords   frontmatter {@code keywords}, plus the operation of an OpenAPI page
 * @param content    the Markdown source without frontmatter, snippets inlined: what {@code /v1/page} returns
 * @param language   the navigation language it belongs to
 * @param version    the navigation version it belongs to, empty on a site without versions
 * @param breadcrumb product, tab, dropdown and group labels leading to it, empty for a hidden page
 * @param hidden     not reachable from the navigation (read only where {@code seo.indexing} is {@code "all"})
 * @param groups     frontmatter {@code groups}: the user groups that may see it; empty for a public page
 * @param tag        frontmatter {@code tag} (Mintlify's label, {@code "NEW"}), what {@code filter.tag} matches; empty
 *                   for none
 * @param boost      Mintlify's {@code boost}: its frontmatter's, else its navigation group's; null for none (1)
 */
public record Page(
        String path, String title, String description, List<String> keywords, String content,
        List<Section> sections, String language, String version, List<String> breadcrumb, boolean hidden,
        List<String> groups, String tag, Double boost) {

    public Page(String path, String title, String description, List<String> keywords, String content,
            List<Section> sections, String language, String version, List<String> breadcrumb, boolean hidden,
            List<String> groups) {
        this(path, title, description, keywords, content, sections, language, version, breadcrumb, hidden, groups,
                "", null);
    }

    /** The page as the navigation places it; its own boost wins over its group's. */
    public Page placed(String language, String version, List<String> breadcrumb, boolean hidden, Double groupBoost) {
        return new Page(path, title, description, keywords, content, sections, language, version,
                List.copyOf(breadcrumb), hidden, groups, tag, boost != null ? boost : groupBoost);
    }

    /**
     * Its title as Markdown text: the characters that would make markup of it (HTML, MDX expressions, links, code)
     * escaped, so a title reads as the text it is wherever it heads a page.
     */
    public String markdownTitle() {
        return title.replaceAll("[\\\\`<>{}\\[\\]&]", "\\\\$0");
    }

    /** The factor its search score is multiplied by: 1 without a boost. */
    public double boostFactor() {
        return boost == null ? 1 : boost;
    }

    /** Public pages are visible to everyone, a restricted one only to a reader in one of its groups. */
    public boolean visibleTo(Collection<String> readerGroups) {
        return groups.isEmpty() || groups.stream().anyMatch(readerGroups::contains);
    }
}
