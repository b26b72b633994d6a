package dev.docsassistant.search;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Inlines Mintlify snippets into a page's MDX before it is parsed, so the text a reader sees on the page is the text
 * that gets indexed. Content snippets are default imports of {@code .mdx}/{@code .md} files
 * ({@code import Name from "/snippets/x.mdx"} then {@code <Name />}) and the legacy {@code <Snippet file="x.mdx" />}.
 * Named imports and {@code .jsx} files are components and are left alone. Code blocks are never touched: pages
 * about snippets show imports and usages as examples. Only files inside the folder are read ({@link FolderFiles}),
 * and a page grows only within {@link PageLimits}: every inlined text is counted against the page's budget before it
 * is appended, at every level, so the text built for a page (and the work) stays within the budget.
 * Not thread-safe (it caches snippet files); use one per indexing thread.
 */
public final class Snippets {

    private static final int MAX_DEPTH = 3;
    private static final String PAGE_BOUND = "assistant.search.max-page-chars";
    private static final Pattern FRONTMATTER = Pattern.compile("\\A---\\R.*?\\R---[ \\t]*(?:\\R|\\z)", Pattern.DOTALL);
    private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})");
    private static final Pattern IMPORT = Pattern.compile(
            "^\\s*import\\s+([A-Z][\\w$]*)\\s+from\\s+([\"'])([^\"']+\\.mdx?)\\2\\s*;?\\s*$");
    /** A self-closing usage {@code <Name .../>} or the legacy {@code <Snippet file="..."/>}. */
    private static final Pattern USAGE = Pattern.compile(
            "<([A-Z][\\w$]*)((?:\\s+[\\w$-]+(?:=(?:\"[^\"]*\"|'[^']*'|\\{[^{}]*\\}))?)*)\\s*/>");
    /** {@code name="v"}, {@code name='v'}, {@code name={"v"}}: string props a snippet uses as {@code {name}}. */
    private static final Pattern ATTRIBUTE = Pattern.compile(
            "([\\w$-]+)=(?:\"([^\"]*)\"|'([^']*)'|\\{\\s*[\"'`]([^\"'`]*)[\"'`]\\s*\\})");

    private final Path root;
    private final FolderFiles files;
    private final PageLimits limits;
    private final Map<Path, Optional<String>> cache = new HashMap<>();
    /** The page being expanded: characters it may still grow by, the bound's name, how often each snippet went in. */
    private long budget;
    private String bound;
    private final Map<Path, Integer> uses = new HashMap<>();

    public Snippets(Path root) throws IOException {
        this(root, new FolderFiles(root), PageLimits.DEFAULT);
    }

    Snippets(Path root, FolderFiles files, PageLimits limits) {
        this.root = root.toAbsolutePath().normalize();
        this.files = files;
        this.limits = limits;
    }

    /** The page's source with its snippets inlined; relative imports resolve as if the page were at the root. */
    public String expand(String mdx) {
        return expand(mdx, root, limits.maxPageChars(), PAGE_BOUND);
    }

    /** As {@link #expand(String)}, with relative imports resolved from the page's own file ({@code guides/a.mdx}). */
    public String expand(String mdx, String pagePath) {
        return expand(mdx, pagePath, limits.maxPageChars(), PAGE_BOUND);
    }

    /**
     * As {@link #expand(String, String)}, the page's text growing to at most {@code maxChars}, the bound the
     * property {@code bound} sets.
     *
     * @throws PageLimits.ExceededException the page would pass {@code maxChars} or use a snippet too often
     */
    String expand(String mdx, String pagePath, long maxChars, String bound) {
        Path page = root.resolve(pagePath.replace('\\', '/').replaceAll("^/+", "")).normalize();
        return expand(mdx, page.startsWith(root) ? page.getParent() : root, maxChars, bound);
    }

    private String expand(String mdx, Path directory, long maxChars, String bound) {
        this.budget = maxChars;
        this.bound = maxChars + " characters (" + bound + ")";
        uses.clear();
        spend(mdx.length());
        return expand(mdx, directory, new ArrayDeque<>());
    }

    private void spend(long chars) {
        budget -= chars;
        if (budget < 0) {
            throw new PageLimits.ExceededException("it expands past " + bound);
        }
    }

    /** {@code chain} holds the snippet files being expanded on the way here: it bounds depth and stops cycles. */
    private String expand(String mdx, Path directory, Deque<Path> chain) {
        String[] lines = mdx.split("\n", -1);
        Map<String, Path> imports = new LinkedHashMap<>();
        boolean[] dropped = new boolean[lines.length];
        forEachProseLine(lines, i -> {
            Matcher line = IMPORT.matcher(lines[i]);
            if (line.matches()) {
                Path file = resolve(directory, line.group(3));
                if (file != null) {
                    imports.put(line.group(1), file);
                    dropped[i] = true;
                }
            }
        });
        forEachProseLine(lines, i -> {
            if (!dropped[i]) {
                lines[i] = replaceUsages(lines[i], imports, chain);
            }
        });
        StringBuilder out = new StringBuilder(mdx.length());
        for (int i = 0; i < lines.length; i++) {
            if (!dropped[i]) {
                out.append(lines[i]).append(i + 1 < lines.length ? "\n" : "");
            }
        }
        return out.toString();
    }

    private String replaceUsages(String line, Map<String, Path> imports, Deque<Path> chain) {
        Matcher usage = USAGE.matcher(line);
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (usage.find()) {
            Map<String, String> props = props(usage.group(2));
            Path file = usage.group(1).equals("Snippet") && props.containsKey("file")
                    ? resolve(root, "/snippets/" + props.get("file")) : imports.get(usage.group(1));
            String inlined = file == null || inCode(line, usage.start()) ? null : inline(file, props, chain);
            if (inlined != null) {
                String indent = line.substring(0, usage.start()).isBlank() ? line.substring(0, usage.start()) : "";
                spend(inlined.length() + indent.length() * inlined.chars().filter(c -> c == '\n').count());
                out.append(line, last, usage.start()).append(inlined.replace("\n", "\n" + indent));
                last = usage.end();
            }
        }
        return last == 0 ? line : out.append(line.substring(last)).toString();
    }

    /** The snippet's content with its own snippets expanded and {@code {prop}} placeholders filled, or null. */
    private String inline(Path file, Map<String, String> props, Deque<Path> chain) {
        Optional<String> content = content(file);
        if (content.isEmpty() || chain.contains(file) || chain.size() >= MAX_DEPTH) {
            return null;
        }
        if (uses.merge(file, 1, Integer::sum) > limits.maxSnippetUses()) {
            throw new PageLimits.ExceededException("it inlines /" + root.relativize(file).toString().replace('\\', '/')
                    + " more than " + limits.maxSnippetUses() + " times (assistant.search.max-snippet-uses)");
        }
        chain.push(file);
        String text = expand(content.get(), file.getParent(), chain);
        chain.pop();
        for (Map.Entry<String, String> prop : props.entrySet()) {
            String placeholder = "{" + prop.getKey() + "}";
            long growth = (long) occurrences(text, placeholder) * (prop.getValue().length() - placeholder.length());
            if (growth > budget) {
                throw new PageLimits.ExceededException("it expands past " + bound);
            }
            text = text.replace(placeholder, prop.getValue());
        }
        return text.strip();
    }

    /** Root-relative ({@code /snippets/x.mdx}) or relative to {@code directory}; null unless a file under the root. */
    private Path resolve(Path directory, String reference) {
        Path file = (reference.startsWith("/") ? root.resolve(reference.substring(1)) : directory.resolve(reference))
                .normalize();
        if (file.startsWith(root) && content(file).isPresent()) {
            return file;
        }
        // Without the page's own folder (expand(mdx)), "../snippets/x.mdx" most likely means the root's snippets.
        Path fallback = root.resolve(reference.replaceAll("^/+|^(\\.{1,2}/)+", "")).normalize();
        return fallback.startsWith(root) && content(fallback).isPresent() ? fallback : null;
    }

    /** Every file the expansions so far looked at, by its path under the root, with what it held (empty: none). */
    Map<String, Optional<String>> read() {
        Map<String, Optional<String>> read = new HashMap<>();
        cache.forEach((file, content) -> read.put(root.relativize(file).toString(), content));
        return read;
    }

    /** Whether each file still holds what it held ({@link #read}): pages expanded with them expand alike again. */
    boolean unchanged(Map<String, Optional<String>> read) {
        return read.entrySet().stream().allMatch(file -> content(root.resolve(file.getKey()).normalize())
                .equals(file.getValue()));
    }

    private Optional<String> content(Path file) {
        return cache.computeIfAbsent(file, f -> {
            if (!files.readable(f)) {
                return Optional.empty(); // missing, or a link out of the folder: never read
            }
            try {
                String text = files.read(f).replace("\r\n", "\n");
                return Optional.of(FRONTMATTER.matcher(text).replaceFirst(""));
            } catch (IOException e) {
                return Optional.empty(); // like a missing snippet: the page is still indexed, with the usage as is
            }
        });
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    private static Map<String, String> props(String attributes) {
        Map<String, String> props = new LinkedHashMap<>();
        Matcher attribute = ATTRIBUTE.matcher(attributes);
        while (attribute.find()) {
            String value = attribute.group(2) != null ? attribute.group(2)
                    : attribute.group(3) != null ? attribute.group(3) : attribute.group(4);
            props.put(attribute.group(1), value);
        }
        return props;
    }

    /** Whether {@code index} sits inside an inline code span ({@code `<Name />`}) on its line. */
    private static boolean inCode(String line, int index) {
        return line.substring(0, index).chars().filter(c -> c == '`').count() % 2 == 1;
    }

    private interface LineAction {
        void apply(int index);
    }

    /** Calls {@code action} for each line outside fenced code blocks. */
    private static void forEachProseLine(String[] lines, LineAction action) {
        String fence = null;
        for (int i = 0; i < lines.length; i++) {
            Matcher marker = FENCE.matcher(lines[i]);
            if (fence == null && marker.find()) {
                fence = marker.group(1);
            } else if (fence != null) {
                if (marker.find() && marker.group(1).charAt(0) == fence.charAt(0)
                        && marker.group(1).length() >= fence.length() && lines[i].strip().equals(marker.group(1))) {
                    fence = null;
                }
            } else {
                action.apply(i);
            }
        }
    }
}
