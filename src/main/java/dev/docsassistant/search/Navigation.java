package dev.docsassistant.search;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.ground.Json;

/**
 * A site's navigation from {@code docs.json} (or the legacy {@code mint.json}): where each page sits, and which
 * languages and versions the site declares. Search uses it to filter by language/version and to label hits.
 * Immutable once read.
 */
public final class Navigation {

    /**
     * Where a page sits in the navigation. breadcrumb = labels of product/tab/dropdown/anchor/menu item/group,
     * outermost first (not language or version); boost = Mintlify's {@code boost} of the nearest group (or other
     * division) around the page that sets one, null when none does.
     */
    public record Placement(String language, String version, List<String> breadcrumb, Double boost) {
        public Placement {
            breadcrumb = List.copyOf(breadcrumb);
        }

        public Placement(String language, String version, List<String> breadcrumb) {
            this(language, version, breadcrumb, null);
        }
    }

    private static final ObjectMapper JSON = Json.mapper();
    /** Keys whose values hold further divisions or pages, walked in document order. */
    private static final Set<String> CHILDREN = Set.of(
            "languages", "versions", "products", "tabs", "anchors", "dropdowns", "menu", "groups", "pages", "global");
    /** Keys that name a division; the label goes into the breadcrumb. */
    private static final List<String> LABELS = List.of("product", "tab", "dropdown", "anchor", "item", "group");
    /** A folder without docs.json or mint.json: no navigation to leave a page out of, so every page is in it. */
    private static final Navigation NONE = new Navigation(Map.of(), Set.of(), true, List.of(), "en", List.of(), "",
            "", "");

    private final Map<String, Placement> placements;
    /** Placed routes whose every placement is under a {@code hidden} tab or group without {@code searchable: true}. */
    private final Set<String> underHiddenDivision;
    /** {@code seo.indexing: "all"} (or no navigation file): hidden pages are indexed too. */
    private final boolean indexesAll;
    private final List<String> languages;
    private final String defaultLanguage;
    private final List<String> versions;
    private final String defaultVersion;
    /** docs.json's {@code name} and {@code description}, "" if absent: llms.txt's title and summary. */
    private final String name;
    private final String description;

    private Navigation(Map<String, Placement> placements, Set<String> underHiddenDivision, boolean indexesAll,
                       List<String> languages, String defaultLanguage, List<String> versions, String defaultVersion,
                       String name, String description) {
        this.placements = placements;
        this.underHiddenDivision = underHiddenDivision;
        this.indexesAll = indexesAll;
        this.languages = languages;
        this.defaultLanguage = defaultLanguage;
        this.versions = versions;
        this.defaultVersion = defaultVersion;
        this.name = name;
        this.description = description;
    }

    /** Reads {@code docs.json}, else {@code mint.json}, else returns {@link #none()}. */
    public static Navigation read(Path root) throws IOException {
        Path docs = root.resolve("docs.json");
        if (Files.isRegularFile(docs)) {
            return build(docs, parse(docs), false);
        }
        Path mint = root.resolve("mint.json");
        if (Files.isRegularFile(mint)) {
            return build(mint, parse(mint), true);
        }
        return none();
    }

    /** docs.json, else mint.json, as read; null for a folder with neither. */
    static JsonNode config(Path root) throws IOException {
        for (String name : List.of("docs.json", "mint.json")) {
            Path file = root.resolve(name);
            if (Files.isRegularFile(file)) {
                return parse(file);
            }
        }
        return null;
    }

    public static Navigation none() {
        return NONE;
    }

    /**
     * Whether the navigation lets the page be indexed (Mintlify's "navigable" pages): placed, and not only under
     * hidden tabs or groups (a {@code searchable: true} one lets its pages in again), or the site indexes all pages.
     */
    public boolean indexes(String route) {
        return indexesAll || placements.containsKey(route(route)) && !underHiddenDivision.contains(route(route));
    }

    /** {@code seo.indexing: "all"} in docs.json, or no docs.json at all: every hidden page is indexed. */
    public boolean indexesAll() {
        return indexesAll;
    }

    public Optional<Placement> placement(String route) {
        return Optional.ofNullable(placements.get(route(route)));
    }

    public List<String> languages() {
        return languages;
    }

    public String defaultLanguage() {
        return defaultLanguage;
    }

    public List<String> versions() {
        return versions;
    }

    public String defaultVersion() {
        return defaultVersion;
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    public String languageOf(String route) {
        Placement placement = placements.get(route(route));
        return placement != null ? placement.language() : byPrefix(route, languages, defaultLanguage);
    }

    public String versionOf(String route) {
        Placement placement = placements.get(route(route));
        return placement != null ? placement.version() : byPrefix(route, versions, defaultVersion);
    }

    /** Every placed route, in navigation order. */
    public Set<String> routes() {
        return placements.keySet();
    }

    /** {@code a}, {@code /a.mdx} → {@code /a}; {@code x/index} → {@code /x}. */
    static String route(String ref) {
        String route = ref.strip().replaceAll("^/+|/+$", "").replaceAll("\\.mdx?$", "");
        if (route.equals("index")) {
            return "/";
        }
        if (route.endsWith("/index")) {
            route = route.substring(0, route.length() - "/index".length());
        }
        return "/" + route;
    }

    /** A declared code that is the route's first segment ({@code /fr/...}, {@code /v2/...}), else the default. */
    private static String byPrefix(String route, List<String> declared, String fallback) {
        String path = route(route);
        int end = path.indexOf('/', 1);
        String first = end < 0 ? path.substring(1) : path.substring(1, end);
        for (String code : declared) {
            if (code.equalsIgnoreCase(first)) {
                return code;
            }
        }
        return fallback;
    }

    private static JsonNode parse(Path file) throws IOException {
        try {
            return JSON.readTree(Files.readAllBytes(file)); // a Path inside the jar has no File
        } catch (JsonProcessingException e) {
            throw new IOException("Invalid JSON in " + file + ": " + e.getOriginalMessage(), e);
        }
    }

    private static Navigation build(Path file, JsonNode config, boolean legacy) throws IOException {
        Walker walker = new Walker();
        if (legacy) {
            // mint.json: top-level versions (strings, or {name}) in order; tabs/anchors own pages by URL prefix.
            for (JsonNode version : config.path("versions")) {
                String name = version.isTextual() ? version.asText() : version.path("name").asText("");
                if (!name.isBlank()) {
                    walker.versions.add(name);
                }
            }
            walker.sections = new ArrayList<>();
            for (String kind : List.of("tabs", "anchors")) {
                for (JsonNode section : config.path(kind)) {
                    String url = section.path("url").asText("").replaceAll("^/+|/+$", "");
                    if (!url.isEmpty() && !url.contains(":") && section.hasNonNull("name")) {
                        walker.sections.add(Map.entry(url + "/", section.get("name").asText()));
                    }
                }
            }
        }
        Set<Path> refChain = new HashSet<>(Set.of(file.toAbsolutePath().normalize()));
        walker.walk(config.path("navigation"), file, null, null, List.of(), false, refChain);

        List<String> languages = List.copyOf(walker.languages);
        String defaultLanguage = walker.defaultLanguage != null ? walker.defaultLanguage
                : languages.isEmpty() ? "en" : languages.get(0);
        List<String> versions = List.copyOf(walker.versions);
        String defaultVersion = walker.defaultVersion != null ? walker.defaultVersion
                : versions.isEmpty() ? "" : versions.get(0);

        // Pages outside any language/version division get the one their path implies, like unplaced pages do.
        Map<String, Placement> placements = new LinkedHashMap<>();
        walker.placements.forEach((route, raw) -> placements.put(route, new Placement(
                raw.language() != null ? raw.language() : byPrefix(route, languages, defaultLanguage),
                raw.version() != null ? raw.version() : byPrefix(route, versions, defaultVersion),
                raw.breadcrumb(), raw.boost())));
        Set<String> hidden = new HashSet<>(walker.placements.keySet());
        hidden.removeAll(walker.indexed);
        return new Navigation(Collections.unmodifiableMap(placements), Set.copyOf(hidden),
                "all".equals(config.path("seo").path("indexing").asText()), languages, defaultLanguage, versions,
                defaultVersion, config.path("name").asText("").strip(), config.path("description").asText("").strip());
    }

    /** One pass over the navigation tree; language and version may still be null in the placements it collects. */
    private static final class Walker {

        final Map<String, Placement> placements = new LinkedHashMap<>();
        /** Routes placed at least once outside a hidden division (or in a searchable one). */
        final Set<String> indexed = new HashSet<>();
        final Set<String> languages = new LinkedHashSet<>();
        final Set<String> versions = new LinkedHashSet<>();
        String defaultLanguage;
        String defaultVersion;
        List<Map.Entry<String, String>> sections = List.of();
        /** The boost of the division being walked, from the nearest one that sets it; null for none. */
        Double boost;

        /**
         * {@code refChain} holds the files being expanded on the way here, so a {@code $ref} cycle stops;
         * {@code hidden}: the nearest tab or group that says so is hidden, and not searchable.
         */
        void walk(JsonNode node, Path file, String language, String version, List<String> breadcrumb,
                  boolean hidden, Set<Path> refChain) throws IOException {
            if (node.isTextual()) {
                page(node.asText(), language, version, breadcrumb, hidden);
            } else if (node.isArray()) {
                for (JsonNode child : node) {
                    walk(child, file, language, version, breadcrumb, hidden, refChain);
                }
            } else if (node.isObject() && node.hasNonNull("$ref")) {
                ref((ObjectNode) node, file, language, version, breadcrumb, hidden, refChain);
            } else if (node.isObject()) {
                division(node, file, language, version, breadcrumb, hidden, refChain);
            }
        }

        private void ref(ObjectNode node, Path file, String language, String version, List<String> breadcrumb,
                         boolean hidden, Set<Path> refChain) throws IOException {
            Path target = file.toAbsolutePath().getParent().resolve(node.get("$ref").asText()).normalize();
            if (!refChain.add(target)) {
                return; // a cycle: this file is already being expanded further up
            }
            if (!Files.isRegularFile(target)) {
                throw new NoSuchFileException(target.toString(), file.toString(), "$ref target not found");
            }
            JsonNode loaded = parse(target);
            if (loaded.isObject()) {
                // Keys next to the $ref win over the referenced file's own.
                ObjectNode merged = ((ObjectNode) loaded).deepCopy();
                node.fields().forEachRemaining(e -> {
                    if (!e.getKey().equals("$ref")) {
                        merged.set(e.getKey(), e.getValue());
                    }
                });
                loaded = merged;
            }
            walk(loaded, target, language, version, breadcrumb, hidden, refChain);
            refChain.remove(target);
        }

        private void division(JsonNode node, Path file, String language, String version, List<String> breadcrumb,
                              boolean hidden, Set<Path> refChain) throws IOException {
            if (node.has("href") && !node.has("root") && CHILDREN.stream().noneMatch(node::has)) {
                return; // an external link (global anchors, menu items), not a part of the site
            }
            // Mintlify: a hidden tab or group hides its pages from search and the assistant, unless it is also
            // searchable: true; a descendant hidden without it hides its own pages again.
            if (node.path("searchable").asBoolean(false)) {
                hidden = false;
            } else if (node.path("hidden").asBoolean(false)) {
                hidden = true;
            }
            if (node.path("language").isTextual()) {
                language = node.get("language").asText();
                languages.add(language);
                if (node.path("default").asBoolean(false) && defaultLanguage == null) {
                    defaultLanguage = language;
                }
            }
            if (node.path("version").isTextual()) {
                version = node.get("version").asText();
                versions.add(version);
                if (node.path("default").asBoolean(false) && defaultVersion == null) {
                    defaultVersion = version;
                }
            }
            for (String key : LABELS) {
                JsonNode label = node.path(key);
                if (label.isTextual() && !label.asText().isBlank()) {
                    List<String> longer = new ArrayList<>(breadcrumb);
                    longer.add(label.asText().strip());
                    breadcrumb = List.copyOf(longer);
                    break;
                }
            }
            Double outer = boost;
            Double own = Boosts.of(node.get("boost"));
            if (own != null) {
                boost = own;
            }
            if (node.path("root").isTextual()) {
                page(node.get("root").asText(), language, version, breadcrumb, hidden);
            }
            for (Map.Entry<String, JsonNode> child : node.properties()) {
                if (CHILDREN.contains(child.getKey())) {
                    walk(child.getValue(), file, language, version, breadcrumb, hidden, refChain);
                }
            }
            boost = outer;
        }

        private void page(String ref, String language, String version, List<String> breadcrumb, boolean hidden) {
            if (ref.isBlank() || ref.strip().contains(" ")) {
                return; // "POST /v1/sessions": an OpenAPI operation, not a page file
            }
            String route = route(ref);
            // the first placement places the page, unless only a later one is indexed (a hidden copy first)
            if (!placements.containsKey(route) || !hidden && !indexed.contains(route)) {
                placements.put(route, new Placement(language, version, withSection(route, breadcrumb), boost));
            }
            if (!hidden) {
                indexed.add(route);
            }
        }

        /** mint.json: a page under a tab's or anchor's URL sits in that section. */
        private List<String> withSection(String route, List<String> breadcrumb) {
            List<String> labels = new ArrayList<>();
            for (Map.Entry<String, String> section : sections) {
                if ((route.substring(1) + "/").startsWith(section.getKey())) {
                    labels.add(section.getValue());
                }
            }
            labels.addAll(breadcrumb);
            return labels;
        }
    }
}
