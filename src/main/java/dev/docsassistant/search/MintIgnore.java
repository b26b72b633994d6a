package dev.docsassistant.search;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code .mintignore} file at the docs root, in {@code .gitignore} syntax: files it matches are not published,
 * so they must not be indexed either. As in git, the last matching rule wins, and a file inside an ignored
 * directory stays ignored even if a later {@code !rule} names the file itself.
 */
public final class MintIgnore {

    private record Rule(Pattern pattern, boolean negated, boolean directoryOnly) {
    }

    private static final MintIgnore NOTHING = new MintIgnore(List.of());
    /**
     * What Mintlify ignores without being told (its "Exclude files" page); a {@code .mintignore} adds to these.
     * Build and scratch folders count at the root only: {@code guides/build/} is a section of docs, not an output.
     */
    static final String DEFAULTS = String.join("\n", ".git/", ".github/", ".claude/", ".agents/", ".idea/",
            ".vscode/", "node_modules/", "/build/", "/dist/", "/coverage/", "/.cache/", "/tmp/", "/temp/",
            "README.md", "LICENSE.md", "CHANGELOG.md", "CONTRIBUTING.md");

    private final List<Rule> rules;

    private MintIgnore(List<Rule> rules) {
        this.rules = rules;
    }

    /** Mintlify's default patterns, then the root's {@code .mintignore} if there is one. */
    public static MintIgnore read(Path root) throws IOException {
        return read(new FolderFiles(root), root);
    }

    static MintIgnore read(FolderFiles files, Path root) throws IOException {
        Path file = root.resolve(".mintignore");
        return parse(DEFAULTS + "\n" + (files.readable(file) ? files.read(file) : ""));
    }

    static MintIgnore parse(String text) {
        List<Rule> rules = new ArrayList<>();
        for (String line : text.split("\\R")) {
            String pattern = line.stripTrailing();
            if (pattern.isEmpty() || pattern.startsWith("#")) {
                continue;
            }
            boolean negated = pattern.startsWith("!");
            if (negated) {
                pattern = pattern.substring(1);
            } else if (pattern.startsWith("\\#") || pattern.startsWith("\\!")) {
                pattern = pattern.substring(1);
            }
            boolean directoryOnly = pattern.endsWith("/");
            pattern = pattern.replaceAll("/+$", "");
            // A slash anywhere but at the end ties the pattern to the root; otherwise it names a file at any depth.
            boolean anchored = pattern.contains("/");
            pattern = pattern.replaceAll("^/+", "");
            if (!pattern.isEmpty()) {
                String regex = (anchored || pattern.startsWith("**") ? "" : "(?:.*/)?") + glob(pattern);
                rules.add(new Rule(Pattern.compile(regex), negated, directoryOnly));
            }
        }
        return rules.isEmpty() ? NOTHING : new MintIgnore(List.copyOf(rules));
    }

    /** Whether {@code relativePath} ({@code drafts/a.mdx}: forward slashes, from the docs root) is ignored. */
    public boolean ignored(String relativePath) {
        if (rules.isEmpty()) {
            return false;
        }
        String path = relativePath.replace('\\', '/').replaceAll("^/+|/+$", "");
        // Check each enclosing directory first: an ignored directory hides its whole subtree.
        for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
            if (matches(path.substring(0, slash), true)) {
                return true;
            }
        }
        return matches(path, false);
    }

    private boolean matches(String path, boolean directory) {
        boolean ignored = false;
        for (Rule rule : rules) {
            if ((directory || !rule.directoryOnly()) && rule.pattern().matcher(path).matches()) {
                ignored = !rule.negated();
            }
        }
        return ignored;
    }

    /** Glob to regex: {@code **} spans folders, {@code *} and {@code ?} stay in one name, {@code [..]} is a class. */
    private static String glob(String glob) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*' && glob.startsWith("**", i)) {
                boolean whole = (i == 0 || glob.charAt(i - 1) == '/')
                        && (i + 2 == glob.length() || glob.charAt(i + 2) == '/');
                if (whole && i + 2 < glob.length()) {
                    regex.append("(?:.*/)?"); // "**/": zero or more directories
                    i += 2;
                } else {
                    regex.append(".*");
                    i++;
                }
            } else if (c == '*') {
                regex.append("[^/]*");
            } else if (c == '?') {
                regex.append("[^/]");
            } else if (c == '[' && glob.indexOf(']', i + 2) > 0) {
                int end = glob.indexOf(']', i + 2);
                String members = glob.substring(i + 1, end).replace("\\", "\\\\");
                regex.append('[').append(members.startsWith("!") ? "^" + members.substring(1) : members).append(']');
                i = end;
            } else if (c == '\\' && i + 1 < glob.length()) {
                regex.append(Pattern.quote(String.valueOf(glob.charAt(++i))));
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return regex.toString();
    }
}
