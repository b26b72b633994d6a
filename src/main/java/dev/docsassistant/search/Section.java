package dev.docsassistant.search;

import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A part of a page under one heading: what the index stores and the model quotes, as the Markdown the page wrote.
 *
 * @param anchor   the heading's anchor ({@code wildcards} in {@code /create/redirects#wildcards}), empty for the intro
 * @param headings the heading trail below the page title
 * @param text     the prose as Markdown, MDX tags removed and their text kept: code spans with their backticks and
 *                 all they hold ({@code `token revoke <id>`}), links with their targets, a line a paragraph, list
 *                 item or table row
 * @param code     the fenced code blocks as Markdown, each with its own fence and language, a blank line between
 */
public record Section(String anchor, List<String> headings, String text, String code) {

    /** {@code [words](target)}, the target optionally in angle brackets: a link, of which a reader reads the words. */
    private static final Pattern LINK = Pattern.compile("\\[([^\\]\\n]*)\\]\\((?:<[^>\\n]*>|[^)\\s]*)\\)");
    /** Inline code: a run of backticks, what it holds, the same run ({@code `domain.<id>.error`}). */
    public static final Pattern CODE_SPAN = Pattern.compile("(?<!`)(`+)(?!`) ?(.*?) ?(?<!`)\\1(?!`)");
    private static final Pattern FENCE = Pattern.compile("(`{3,}).*");

    /** The prose's words as a reader reads them, without link targets and backticks: what search weighs. */
    public String words() {
        return words(text);
    }

    /** The code blocks' lines without their fences (a block's own lines may look like fences): what search weighs. */
    public String codeLines() {
        StringBuilder lines = new StringBuilder(code.length());
        openFence(code, line -> lines.append(line).append('\n'));
        return lines.toString().strip();
    }

    /**
     * The fence of the block {@code markdown} leaves open at its end (cut short), null if none; each line inside a
     * block goes to {@code codeLine}. A block opens with a line of three or more backticks and closes with the same.
     */
    public static String openFence(String markdown, Consumer<String> codeLine) {
        String fence = null;
        for (String line : markdown.split("\n")) {
            Matcher opening = FENCE.matcher(line);
            if (fence == null && opening.matches()) {
                fence = opening.group(1);
            } else if (line.equals(fence)) {
                fence = null;
            } else if (fence != null) {
                codeLine.accept(line);
            }
        }
        return fence;
    }

    /** {@code markdown}'s words as a reader reads them: links their words, code spans what they hold. */
    public static String words(String markdown) {
        if (markdown.indexOf('`') < 0 && markdown.indexOf('[') < 0) {
            return markdown;
        }
        return CODE_SPAN.matcher(LINK.matcher(markdown).replaceAll("$1")).replaceAll("$2");
    }
}
