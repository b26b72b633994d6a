package dev.docsassistant.search;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A documentation folder on disk or on the classpath (inside the jar for the demo docs), read into pages placed
 * in the site's navigation. {@code snippets/} holds reusable fragments that pages inline, not pages; hidden files,
 * Mintlify's default ignores ({@code node_modules/}, {@code README.md}, …) and files {@code .mintignore} names are
 * left out, and so are the pages Mintlify keeps out of search and the assistant's context ({@link Indexing}).
 */
public final class DocsFolder {

    /** Where the docs team's Assistant.md may be, first found first; never a page (a root one is kept out too). */
    private static final List<String> INSTRUCTIONS = List.of(".mintlify/Assistant.md", ".mintlify/ASSISTANT.md",
            "Assistant.md", "ASSISTANT.md");

    private DocsFolder() {
    }

    public static Docs read(String location) throws IOException {
        if (location.startsWith("classpath:")) {
            return readClasspath(location.substring("classpath:".length()));
        }
        return read(Path.of(location));
    }

    static Docs read(Path root) throws IOException {
        return read(root, new Cache());
    }

    /**
     * What one read of a folder found, for the next read of the same docs (a synced domain's next snapshot) to reuse:
     * each page file's text as read, its frontmatter, its source with snippets inlined and the page parsed from it,
     * and what the snippets it inlined held. One per domain; one read at a time.
     */
    public static final class Cache {
        private Map<String, PageFile> files = Map.of();
        private Map<String, Optional<String>> snippets = Map.of();

        /** Page files the last read found. */
        int size() {
            return files.size();
        }
    }

    /** A page file as read: its text, frontmatter, and (if indexed) its source with snippets inlined and its page. */
    private record PageFile(String raw, Map<?, ?> frontmatter, String source, Page page) {
    }

    /**
     * Reads the folder again, reusing from {@code cache} what an earlier read made of each file: a file whose text
     * is unchanged (and none of whose snippets changed) is neither expanded nor parsed again, a page whose source
     * is unchanged is not parsed again. The cache is left holding this read, for the next.
     */
    public static Docs read(Path root, Cache cache) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new NoSuchFileException(root.toString(), null, "documentation folder not found");
        }
        Navigation navigation = Navigation.read(root);
        MintIgnore ignore = MintIgnore.read(root);
        Snippets snippets = new Snippets(root);
        boolean snippetsUnchanged = snippets.unchanged(cache.snippets);
        OpenApiPages operations = new OpenApiPages(root, Navigation.config(root));
        List<Page> pages = new ArrayList<>();
        List<Page> listed = new ArrayList<>();
        Map<String, PageFile> read = new HashMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                if (isPage(relative) && !ignore.ignored(relative) && Files.isRegularFile(file)) {
                    String raw = Files.readString(file, StandardCharsets.UTF_8);
                    PageFile before = cache.files.get(relative);
                    boolean same = snippetsUnchanged && before != null && before.raw().equals(raw);
                    Map<?, ?> frontmatter = same ? before.frontmatter() : PageParser.frontmatterOf(raw);
                    PageFile now = new PageFile(raw, frontmatter, null, null);
                    if (Indexing.listed(route(relative), frontmatter, navigation)) {
                        // an OpenAPI page is written again from its spec, which may have changed while it did not
                        String source = same && before.source() != null && !OpenApiPages.refers(frontmatter)
                                ? before.source() : operations.expand(snippets.expand(raw, relative), frontmatter);
                        now = new PageFile(raw, frontmatter, source, before != null && source.equals(before.source())
                                ? before.page() : PageParser.parse(route(relative), source));
                        Page placed = place(now.page(), navigation);
                        listed.add(placed);
                        if (Indexing.indexed(route(relative), frontmatter, navigation)) {
                            pages.add(placed);
                        }
                    }
                    read.put(relative, now);
                }
            }
        }
        cache.files = read;
        cache.snippets = snippets.read();
        return new Docs(navigation, List.copyOf(pages), instructions(root), List.copyOf(listed));
    }

    /**
     * The docs team's instructions for the assistant (Mintlify's "Customize assistant behavior"): the first of
     * {@link #INSTRUCTIONS} that exists, "" if none.
     */
    private static String instructions(Path root) throws IOException {
        for (String name : INSTRUCTIONS) {
            Path file = root.resolve(name);
            if (Files.isRegularFile(file)) {
                return Files.readString(file, StandardCharsets.UTF_8).strip();
            }
        }
        return "";
    }

    private static Page place(Page page, Navigation navigation) {
        return navigation.placement(page.path())
                .map(placed -> page.placed(placed.language(), placed.version(), placed.breadcrumb(), false,
                        placed.boost()))
                .orElseGet(() -> page.placed(navigation.languageOf(page.path()), navigation.versionOf(page.path()),
                        List.of(), true, null));
    }

    private static Docs readClasspath(String folder) throws IOException {
        URL url = DocsFolder.class.getClassLoader().getResource(folder.replaceAll("^/+", ""));
        if (url == null) {
            throw new NoSuchFileException("classpath:" + folder);
        }
        try {
            URI uri = url.toURI();
            if (!"jar".equals(uri.getScheme())) {
                return read(Path.of(uri));
            }
            try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
                return read(jar.provider().getPath(uri));
            } catch (FileSystemAlreadyExistsException e) {
                return read(FileSystems.getFileSystem(uri).provider().getPath(uri));
            }
        } catch (URISyntaxException e) {
            throw new IOException("Bad classpath location " + url, e);
        }
    }

    private static boolean isPage(String relative) {
        return (relative.endsWith(".mdx") || relative.endsWith(".md")) && !INSTRUCTIONS.contains(relative)
                && !relative.startsWith("snippets/")
                && !relative.startsWith(".") && !relative.contains("/.");
    }

    /** {@code create/redirects.mdx} → {@code /create/redirects}; {@code guides/index.mdx} → {@code /guides}. */
    static String route(String relative) {
        String route = "/" + relative.substring(0, relative.lastIndexOf('.'));
        if (route.endsWith("/index")) {
            route = route.substring(0, route.length() - "/index".length());
        }
        return route.isEmpty() ? "/" : route;
    }
}
