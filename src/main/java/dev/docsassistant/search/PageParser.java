package dev.docsassistant.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Link;
import org.commonmark.node.ListBlock;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.node.Text;
import org.commonmark.node.ThematicBreak;
import org.commonmark.parser.Parser;

/**
 * Reads a Mintlify {@code .md}/{@code .mdx} page: YAML frontmatter, then Markdown with JSX components. Components
 * are unwrapped (their text and {@code title} attributes kept), and the page is split into sections at headings.
 */
public final class PageParser {

    private static final ObjectMapper YAML = new YAMLMapper();
    private static final Pattern FRONTMATTER = Pattern.compile("\\A---\\R(.*?)\\R---\\R?", Pattern.DOTALL);
    private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})");
    private static final Pattern ESM = Pattern.compile("^(import|export)\\s.*$");
    /** A component tag whose attributes continue on the next lines: {@code <Card} then {@code title="…"}. */
    private static final Pattern OPEN_TAG = Pattern.compile("^<[A-Za-z][\\w.-]*(\\s[^>]*)?$");
    /** A JSX comment ({@code {/* … *\/}}) or an HTML one ({@code <!-- … -->}): never shown to a reader. */
    private static final Pattern MARKUP_IN_TEXT = Pattern.compile("<(?=[A-Za-z/!?])|&(?=#?\\w+;)");
    private static final Pattern COMMENT = Pattern.compile("\\{/\\*.*?\\*/\\}|<!--.*?-->", Pattern.DOTALL);
    private static final Pattern TAG = Pattern.compile("(?<!\\\\)</?[A-Za-z][\\w.-]*(\\s(?:[^<>\"']|\"[^\"]*\"|'[^']*')*)?/?>");
    /**
     * What {@link #markdown} takes out: an MDX component's tag (capitalized, as JSX requires); lower-case HTML and
     * placeholders in prose stay, and a tag inside a code span ({@code `<token>`}) is code, kept as written.
     */
    private static final Pattern COMPONENT = Pattern.compile(
            "</?[A-Z][\\w.-]*(\\s(?:[^<>\"']|\"[^\"]*\"|'[^']*')*)?/?>");
    /** An inline code span: a run of backticks, then anything up to a run of the same length (CommonMark's rule). */
    private static final Pattern CODE_SPAN = Pattern.compile("(?<!`)(?<ticks>`+)(?!`)[^\\n]*?(?<!`)\\k<ticks>(?!`)");
    /** A code span ({@code `{/* … *\/}`} shows a comment, kept as written), else a comment. */
    private static final Pattern SPAN_OR_COMMENT = Pattern.compile(CODE_SPAN.pattern() + "|"
            + COMMENT.pattern(), Pattern.DOTALL);
    private static final Pattern TEXT_ATTRIBUTE = Pattern.compile("\\b(?:title|label|description)=\"([^\"]*)\"");
    private static final Pattern SLUG_DROP = Pattern.compile("[^\\p{L}\\p{N}\\s-]");
    /** The operation at the end of an {@code openapi:} reference: {@code "/spec.json GET /users/{id}"}. */
    private static final Pattern OPERATION = Pattern.compile(
            "(?i)\\b(get|put|post|delete|patch|head|options|trace|webhook)\\s+(\\S+)\\s*$");

    /** Indented code is off: MDX indents content inside components, which is prose, not code. */
    private static final Parser MARKDOWN = Parser.builder()
            .enabledBlockTypes(Set.of(Heading.class, HtmlBlock.class, ThematicBreak.class, FencedCodeBlock.class,
                    BlockQuote.class, ListBlock.class))
            .build();

    private PageParser() {
    }

    public static Page parse(String path, String source) {
        Map<?, ?> frontmatter = Map.of();
        String body = source.replace("\r\n", "\n");
        Matcher matter = FRONTMATTER.matcher(body);
        if (matter.find()) {
            frontmatter = frontmatter(matter.group(1));
            body = body.substring(matter.end());
        }
        body = VisibilityComponent.forAgents(body);
        Sections sections = new Sections();
        MARKDOWN.parse(unwrapMdx(body, TAG)).accept(sections);
        List<Section> parsed = sections.finish();
        if (parsed.isEmpty()) { // a page of frontmatter only (an OpenAPI operation) is still found by its title
            parsed = List.of(new Section("", List.of(), "", ""));
        }

        List<String> keywords = new ArrayList<>();
        if (frontmatter.get("keywords") instanceof List<?> listed) {
            listed.forEach(keyword -> keywords.add(string(keyword)));
        }
        String operation = operation(frontmatter);
        if (!operation.isEmpty()) {
            keywords.add(operation);
        }
        String title = string(frontmatter.get("title"));
        if (title.isEmpty()) {
            title = sections.firstTitle != null ? sections.firstTitle
                    : !operation.isEmpty() ? operation : path.substring(path.lastIndexOf('/') + 1);
        }
        String sidebarTitle = string(frontmatter.get("sidebarTitle"));
        if (!sidebarTitle.isEmpty() && !sidebarTitle.equalsIgnoreCase(title)) {
            keywords.add(sidebarTitle);
        }
        return new Page(path, title, string(frontmatter.get("description")), List.copyOf(keywords), body.strip(),
                parsed, "", "", List.of(), false, groups(frontmatter.get("groups")), string(frontmatter.get("tag")),
                Boosts.of(frontmatter.get("boost")));
    }

    /** Mintlify's {@code groups: ["admin"]} (or a single name): who may see the page; none means everyone. */
    private static List<String> groups(Object groups) {
        List<?> listed = groups instanceof List<?> list ? list : groups == null ? List.of() : List.of(groups);
        return listed.stream().map(PageParser::string).filter(group -> !group.isEmpty()).distinct().toList();
    }

    /** An API page's operation ({@code GET /users/{id}}) from its {@code openapi:} or {@code api:} frontmatter. */
    private static String operation(Map<?, ?> frontmatter) {
        Object reference = frontmatter.get("openapi") != null ? frontmatter.get("openapi") : frontmatter.get("api");
        Matcher operation = OPERATION.matcher(string(reference));
        return operation.find() ? operation.group(1).toUpperCase(Locale.ROOT) + " " + operation.group(2) : "";
    }

    /** The anchor Mintlify gives a heading: lower case, punctuation dropped, spaces to dashes. */
    static String slug(String heading) {
        return SLUG_DROP.matcher(heading.toLowerCase(Locale.ROOT)).replaceAll("").trim().replaceAll("\\s+", "-");
    }

    /** A page source's frontmatter, empty if it has none (or none that parses). */
    static Map<?, ?> frontmatterOf(String source) {
        Matcher matter = FRONTMATTER.matcher(source.replace("\r\n", "\n"));
        return matter.find() ? frontmatter(matter.group(1)) : Map.of();
    }

    private static Map<?, ?> frontmatter(String yaml) {
        try {
            Object value = YAML.readValue(yaml, Object.class);
            return value instanceof Map<?, ?> map ? map : Map.of();
        } catch (Exception e) {
            return Map.of(); // a page with broken frontmatter is still worth indexing
        }
    }

    private static String string(Object value) {
        return value == null ? "" : value.toString().trim();
    }

    /**
     * A page's source ({@link Page#content}) as Markdown for agents: MDX components reduced to their text and titles,
     * imports and comments dropped, and everything else (code blocks with their language, tables, inline code, HTML,
     * placeholders such as {@code <token>}) as its authors wrote it.
     */
    public static String markdown(String source) {
        return unwrapMdx(source, COMPONENT).strip();
    }

    /**
     * Turns MDX into plain Markdown line by line: code fences are kept as they are (dedented), ESM lines and
     * comments dropped, the {@code tags} (all, or the components only) replaced by their title text, and every other
     * line dedented.
     */
    private static String unwrapMdx(String mdx, Pattern tags) {
        StringBuilder out = new StringBuilder(mdx.length());
        String fence = null;
        int fenceIndent = 0;
        StringBuilder tag = null;
        for (String line : uncommented(mdx).split("\n", -1)) {
            if (tag != null) {
                tag.append(' ').append(line.strip());
                if (line.contains(">")) {
                    out.append(unwrapTags(tag.toString(), tags)).append('\n');
                    tag = null;
                }
                continue;
            }
            Matcher opening = FENCE.matcher(line);
            if (fence != null) {
                String content = line.length() >= fenceIndent && line.substring(0, fenceIndent).isBlank()
                        ? line.substring(fenceIndent) : line.stripLeading();
                out.append(content).append('\n');
                if (closes(line, fence)) {
                    fence = null;
                }
                continue;
            }
            if (opening.find()) {
                fence = opening.group(2);
                fenceIndent = opening.group(1).length();
                out.append(line.stripLeading()).append('\n');
                continue;
            }
            if (ESM.matcher(line).matches()) {
                continue;
            }
            if (OPEN_TAG.matcher(line.strip()).matches()) {
                tag = new StringBuilder(line.strip());
                continue;
            }
            out.append(unwrapTags(line.stripLeading(), tags)).append('\n');
        }
        if (tag != null) {
            out.append(tag).append('\n'); // never closed: keep the words
        }
        return out.toString();
    }

    /** Whether {@code line} closes a block opened by {@code fence}: the same character, at least as many. */
    private static boolean closes(String line, String fence) {
        Matcher marker = FENCE.matcher(line);
        return marker.find() && marker.group(2).charAt(0) == fence.charAt(0)
                && marker.group(2).length() >= fence.length() && line.strip().equals(marker.group(2));
    }

    /** The MDX without its comments; those shown in fenced blocks or code spans are code, kept as written. */
    private static String uncommented(String mdx) {
        StringBuilder out = new StringBuilder(mdx.length());
        StringBuilder prose = new StringBuilder();
        String fence = null;
        for (String line : mdx.split("\n", -1)) {
            Matcher opening = FENCE.matcher(line);
            if (fence == null && !opening.find()) {
                prose.append(line).append('\n');
                continue;
            }
            if (fence == null) {
                fence = opening.group(2);
                out.append(withoutComments(prose));
                prose.setLength(0);
            } else if (closes(line, fence)) {
                fence = null;
            }
            out.append(line).append('\n');
        }
        out.append(withoutComments(prose));
        return out.substring(0, out.length() - 1);
    }

    private static String withoutComments(CharSequence prose) {
        return SPAN_OR_COMMENT.matcher(prose).replaceAll(match -> match.group().startsWith("`")
                ? Matcher.quoteReplacement(match.group()) : "");
    }

    /**
     * A line's components replaced by their text; a tag inside a code span ({@code `revoke <id>`}) is code, kept as
     * written, while a code span inside a tag (a template literal in {@code src={`…`}}) goes with its tag.
     */
    private static String unwrapTags(String line, Pattern tags) {
        Matcher tag = tags.matcher(line);
        if (!tag.find()) {
            return line;
        }
        List<int[]> spans = new ArrayList<>();
        for (Matcher code = CODE_SPAN.matcher(line); code.find(); ) {
            spans.add(new int[] {code.start(), code.end()});
        }
        StringBuilder out = new StringBuilder();
        int last = 0;
        int span = 0; // spans and tags both come in the line's order: one pass over each
        do {
            int at = tag.start();
            while (span < spans.size() && spans.get(span)[1] <= at) {
                span++;
            }
            if (span < spans.size() && spans.get(span)[0] < at) {
                continue;
            }
            out.append(line, last, at);
            Matcher text = TEXT_ATTRIBUTE.matcher(tag.group());
            while (text.find()) {
                out.append(text.group(1)).append(". ");
            }
            last = tag.end();
        } while (tag.find());
        return out.append(line.substring(last)).toString().strip();
    }

    /** Collects sections while walking the Markdown tree. */
    private static final class Sections extends AbstractVisitor {

        private final List<Section> sections = new ArrayList<>();
        private final List<String> trail = new ArrayList<>();
        private final List<Integer> levels = new ArrayList<>();
        private StringBuilder text = new StringBuilder();
        private StringBuilder code = new StringBuilder();
        private String anchor = "";
        private String firstTitle;

        @Override
        public void visit(Heading heading) {
            String title = textOf(heading, " ", false);
            if (heading.getLevel() == 1 && firstTitle == null && sections.isEmpty() && text.isEmpty()) {
                firstTitle = title;
                return;
            }
            flush();
            while (!levels.isEmpty() && levels.get(levels.size() - 1) >= heading.getLevel()) {
                levels.remove(levels.size() - 1);
                trail.remove(trail.size() - 1);
            }
            levels.add(heading.getLevel());
            trail.add(title);
            anchor = slug(title);
        }

        /** Each block as written: its own fence, its language and title ({@code ```bash Terminal}), its lines. */
        @Override
        public void visit(FencedCodeBlock block) {
            String literal = block.getLiteral();
            String fence = "`".repeat(Math.max(3, longestRun(literal, '`') + 1));
            String info = block.getInfo() == null ? "" : block.getInfo().strip();
            code.append(code.isEmpty() ? "" : "\n").append(fence).append(info).append('\n').append(literal)
                    .append(literal.isEmpty() || literal.endsWith("\n") ? "" : "\n").append(fence).append('\n');
        }

        /**
         * A paragraph on a line of its own, as Markdown a reader (and a quoting model) can still read: a list
         * item keeps its bullet, and a table (a paragraph of {@code |} lines, there being no table extension)
         * keeps each row on its own line.
         */
        @Override
        public void visit(Paragraph paragraph) {
            boolean table = paragraph.getFirstChild() instanceof Text first && first.getLiteral().startsWith("|");
            String line = textOf(paragraph, table ? "\n" : " ", true);
            text.append(paragraph.getParent() instanceof ListItem ? "- " + line : line).append('\n');
        }

        @Override
        public void visit(HtmlBlock block) {
            // raw HTML left after unwrapping (e.g. <br>, tables written in HTML): keep its words
            String words = TAG.matcher(block.getLiteral()).replaceAll(" ").strip();
            if (!words.isEmpty()) {
                text.append(words).append('\n');
            }
        }

        List<Section> finish() {
            flush();
            return sections;
        }

        private void flush() {
            if (!text.isEmpty() || !code.isEmpty()) {
                sections.add(new Section(anchor, List.copyOf(trail), text.toString().strip(), code.toString().strip()));
            }
            text = new StringBuilder();
            code = new StringBuilder();
        }

        /**
         * The node's text, with {@code lineBreak} for a soft line break; as {@code markdown}, its code spans keep
         * their backticks and links their targets, as a reader copies them (a heading's trail is plain words).
         */
        private static String textOf(Node node, String lineBreak, boolean markdown) {
            StringBuilder out = new StringBuilder();
            node.accept(new AbstractVisitor() {
                @Override
                public void visit(Text text) {
                    // text that reads as a tag or an entity (it was escaped in the source) stays escaped as Markdown
                    out.append(MARKUP_IN_TEXT.matcher(text.getLiteral()).replaceAll("\\\\$0"));
                }

                @Override
                public void visit(Code code) {
                    out.append(markdown ? codeSpan(code.getLiteral()) : code.getLiteral());
                }

                @Override
                public void visit(Link link) {
                    if (!markdown || link.getDestination() == null || link.getDestination().isEmpty()) {
                        visitChildren(link);
                        return;
                    }
                    out.append('[');
                    visitChildren(link);
                    String target = link.getDestination();
                    out.append("](").append(target.matches(".*[\\s()<>].*") ? "<" + target + ">" : target)
                            .append(')');
                }

                @Override
                public void visit(HtmlInline html) {
                    // inline tags carry no words of their own
                }

                @Override
                public void visit(org.commonmark.node.SoftLineBreak softBreak) {
                    out.append(lineBreak);
                }

                @Override
                public void visit(org.commonmark.node.HardLineBreak lineBreak) {
                    out.append(' ');
                }
            });
            return out.toString().strip();
        }

        /** {@code literal} as a code span: fenced by one more backtick than it holds in a row, padded if needed. */
        private static String codeSpan(String literal) {
            String fence = "`".repeat(longestRun(literal, '`') + 1);
            String pad = literal.startsWith("`") || literal.endsWith("`") ? " " : "";
            return fence + pad + literal + pad + fence;
        }

        private static int longestRun(String text, char c) {
            int longest = 0;
            int run = 0;
            for (int i = 0; i < text.length(); i++) {
                run = text.charAt(i) == c ? run + 1 : 0;
                longest = Math.max(longest, run);
            }
            return longest;
        }
    }
}
