package dev.docsassistant.search;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Mintlify's {@code <Visibility for="humans|agents">}: a page's source as agents read it, its Markdown output. A
 * {@code for="humans"} block (what the site shows its readers only) is left out, nested blocks and all, and a
 * {@code for="agents"} block is kept without its tags. Everything the service indexes, answers from and serves as a
 * page is this text, so human-only text never reaches the model. Code fences are copied as they are (a page about
 * the component shows it in one), as is a tag in inline code, and a block never closed hides the rest of the page
 * only if it is human-only.
 */
final class VisibilityComponent {

    private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})");
    private static final Pattern TAG = Pattern.compile(
            "<Visibility\\s+for\\s*=\\s*[\"'{]*\\s*[\"']?(humans|agents)[\"']?\\s*}?\\s*>|</Visibility\\s*>");

    private VisibilityComponent() {
    }

    static String forAgents(String mdx) {
        if (!mdx.contains("<Visibility")) {
            return mdx;
        }
        StringBuilder out = new StringBuilder(mdx.length());
        Deque<Boolean> open = new ArrayDeque<>(); // each open block: true where it hides its content
        int hidden = 0;
        boolean removed = false; // the last lines were a hidden block
        String fence = null;
        for (String line : mdx.split("\n", -1)) {
            Matcher opening = FENCE.matcher(line);
            if (fence != null || opening.find()) {
                if (fence == null) {
                    fence = opening.group(1);
                } else if (opening.find() && line.strip().equals(opening.group(1))
                        && opening.group(1).charAt(0) == fence.charAt(0) && opening.group(1).length() >= fence.length()) {
                    fence = null;
                }
                if (hidden == 0) {
                    out.append(line).append('\n');
                }
                continue;
            }
            boolean wasHidden = hidden > 0;
            StringBuilder kept = new StringBuilder();
            Matcher tag = TAG.matcher(line);
            int last = 0;
            boolean tagged = false;
            while (tag.find()) {
                if (inCode(line, tag.start())) {
                    continue; // `<Visibility for="humans">` in inline code is text
                }
                tagged = true;
                if (hidden == 0) {
                    kept.append(line, last, tag.start());
                }
                last = tag.end();
                if (tag.group(1) != null) {
                    boolean hides = tag.group(1).equals("humans");
                    open.push(hides);
                    hidden += hides ? 1 : 0;
                } else if (!open.isEmpty()) {
                    hidden -= open.pop() ? 1 : 0;
                }
            }
            if (hidden == 0) {
                kept.append(line.substring(last));
            }
            // a line of tags only, or hidden, leaves nothing; nor does the blank line after a hidden block
            boolean blankAfterHidden = !tagged && removed && line.isBlank();
            if (tagged ? !kept.toString().isBlank() : !wasHidden && !blankAfterHidden) {
                out.append(kept).append('\n');
            }
            removed = hidden == 0 && (wasHidden || tagged && kept.toString().isBlank() && removed)
                    || hidden > 0;
        }
        out.setLength(Math.max(0, out.length() - 1)); // split added no newline after the last line
        return out.toString();
    }

    /** Whether {@code at} is inside an inline code span: after an odd number of backticks on its line. */
    private static boolean inCode(String line, int at) {
        int ticks = 0;
        for (int i = 0; i < at; i++) {
            ticks += line.charAt(i) == '`' ? 1 : 0;
        }
        return ticks % 2 == 1;
    }
}
