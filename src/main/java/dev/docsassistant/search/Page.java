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
 */
public record Page(
        String path, String title, String description, List<String> keywords, String content,
        List<Section> sections, String language, String version, List<String> breadcrumb, boolean hidden,
        List<String> groups) {

    /** The page as the navigation places it. */
    public Page placed(String language, String version, List<String> breadcrumb, boolean hidden) {
        return new Page(path, title, description, keywords, content, sections, language, version,
                List.copyOf(breadcrumb), hidden, groups);
    }

    /** Public pages are visible to everyone, a restricted one only to a reader in one of its groups. */
    public boolean visibleTo(Collection<String> readerGroups) {
        return groups.isEmpty() || groups.stream().anyMatch(readerGroups::contains);
    }
}
