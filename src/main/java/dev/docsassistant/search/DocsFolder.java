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
import java.util.stream.Stream;

import dev.docsassistant.ground.Secrets;

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
        return read(root, new HashMap<>());
    }

    /**
     * Reads the folder again, parsing only the pages whose source (snippets inlined) changed since the read that
     * filled {@code parsed}: the others are taken from it as they were parsed. {@code parsed} (each page by its file
     * and a digest of its source) is left holding this read's pages, for the next.
     */
    public static Docs read(Path root, Map<String, Page> parsed) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new NoSuchFileException(root.toString(), null, "documentation folder not found");
        }
        Navigation navigation = Navigation.read(root);
        MintIgnore ignore = MintIgnore.read(root);
        Snippets snippets = new Snippets(root);
        List<Page> pages = new ArrayList<>();
        Map<String, Page> read = new HashMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                if (isPage(relative) && !ignore.ignored(relative) && Files.isRegularFile(file)) {
                    String raw = Files.readString(file, StandardCharsets.UTF_8);
                    if (Indexing.indexed(route(relative), PageParser.frontmatterOf(raw), navigation)) {
                        String source = snippets.expand(raw, relative);
                        String key = relative + "\n" + Secrets.sha256(source);
                        Page page = parsed.get(key);
                        read.put(key, page != null ? page : PageParser.parse(route(relative), source));
                        pages.add(place(read.get(key), navigation));
                    }
                }
            }
        }
        parsed.clear();
        parsed.putAll(read);
        return new Docs(navigation, List.copyOf(pages), instructions(root));
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
                .map(placed -> page.placed(placed.language(), placed.version(), placed.breadcrumb(), false))
                .orElseGet(() -> page.placed(navigation.languageOf(page.path()), navigation.versionOf(page.path()),
                        List.of(), true));
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
