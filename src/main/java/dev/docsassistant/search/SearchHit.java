package dev.docsassistant.search;

/**
 * A page the search found, with its best-matching section.
 *
 * @param path     the page's route, e.g. {@code /create/redirects}
 * @param anchor   the best section's anchor, or empty for the page's introduction
 * @param headings the best section's heading trail, e.g. {@code Redirects › Wildcards}, or empty
 * @param text     the section's prose
 * @param code     the section's code blocks, or empty
 */
public record SearchHit(
        String path, String anchor, String url, String title, String headings, String text, String code,
        float score) {

    private static final int MAX_CONTENT = 2_000;

    /** The section as one excerpt (heading trail, prose, code), bounded in length, as the widget shows it. */
    public String content() {
        StringBuilder content = new StringBuilder();
        if (!headings.isEmpty()) {
            content.append(headings).append("\n\n");
        }
        content.append(text);
        if (!code.isEmpty()) {
            content.append("\n\n```\n").append(code).append("\n```");
        }
        return content.length() > MAX_CONTENT ? content.substring(0, MAX_CONTENT) + "…" : content.toString();
    }
}
