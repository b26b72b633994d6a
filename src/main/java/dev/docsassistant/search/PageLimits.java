package dev.docsassistant.search;

/**
 * What a domain's pages may become once their snippets are inlined, whoever wrote them: a page past a bound is left
 * out of the index (and the sync's status says why), the rest of the domain is served. Checked while a page is
 * expanded, before any text past the bound is built, so a snippet used a hundred times over three levels costs the
 * bound, not the gigabytes it would expand to.
 *
 * @param maxPageChars   characters of one page with its snippets inlined (its file's bytes too)
 * @param maxDomainChars characters of all of a domain's pages together, expanded
 * @param maxSnippetUses times one snippet file is inlined into one page, at every level together
 */
public record PageLimits(int maxPageChars, long maxDomainChars, int maxSnippetUses) {

    /** The shipped defaults ({@code assistant.search.max-page-chars} and the two others). */
    public static final PageLimits DEFAULT = new PageLimits(2_097_152, 67_108_864, 100);

    /** A page left out, and why; the message names the bound and its property. */
    static final class ExceededException extends RuntimeException {

        ExceededException(String message) {
            super(message, null, false, false);
        }
    }
}
