package dev.docsassistant;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.docsassistant.search.PageParser;
import dev.docsassistant.search.Section;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The user guide bundled as the demo tenant's docs is the first thing a new user reads and the first thing the
 * assistant answers from, so it must tell the truth about the product: every setting with its default, no setting
 * that does not exist, a reference page for every endpoint, and no shipped feature announced as "planned".
 */
@SameOnAnyJdk
class UserGuideTest {

    private static final Path GUIDE = Path.of("src/main/resources/demo-docs");
    private static final Path PROPERTIES = Path.of("src/main/resources/application.properties");
    private static final Path OPENAPI = Path.of("src/main/resources/openapi.yaml");
    private static final Path PROPERTIES_PAGE = GUIDE.resolve("configuration/properties.mdx");
    private static final Path LIMITS_PAGE = GUIDE.resolve("guides/abuse.mdx");
    /** The settings that bound what one client, docs author or docs host can cost: all on the limits page. */
    private static final List<String> BOUND_PREFIXES = List.of("assistant.ratelimit.", "assistant.sources.",
            "assistant.search.max-");
    /** Under those prefixes but no bound: where fetched sources are kept. */
    private static final Set<String> NOT_BOUNDS = Set.of("assistant.sources.dir");

    private static final Pattern ROW = Pattern.compile("^\\|(.*)\\|\\s*$");
    private static final Pattern ENV_DEFAULT = Pattern.compile("^\\{\\{env:[A-Z0-9_]+:(.*)}}$");
    private static final Pattern PROPERTY_NAME = Pattern.compile("(?<![\\w./-])assistant\\.[A-Za-z0-9_.-]*[A-Za-z0-9_]");
    private static final Pattern FRONTMATTER_API = Pattern.compile("(?m)\\A---\\n(?:.*\\n)*?openapi: \"([A-Z]+) (\\S+)\"\\n");
    private static final Pattern PAGE_LINK = Pattern.compile("]\\((/[^)#\\s]*)(?:#([^)]*))?\\)");
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "options");

    @Test
    void thePropertiesPageListsEverySettingWithItsDefault() throws IOException {
        Map<String, String> documented = documentedDefaults(Files.readString(PROPERTIES_PAGE));
        List<String> wrong = new ArrayList<>();
        settings().forEach((name, value) -> {
            String cell = documented.get(name);
            if (cell == null) {
                wrong.add(name + ": not on the properties page");
            } else if (!states(cell, value)) {
                wrong.add(name + ": the default is " + value + ", the page says " + cell);
            }
        });
        assertEquals(List.of(), wrong);
    }

    /** Task pages repeat a few settings in their own tables: each default they state is the setting's. */
    @Test
    void everyDefaultAPageStatesIsTheSettingsDefault() throws IOException {
        Map<String, String> settings = settings();
        List<String> wrong = new ArrayList<>();
        pages().forEach((page, text) -> documentedDefaults(text).forEach((name, cell) -> {
            if (settings.containsKey(name) && !states(cell, settings.get(name))) {
                wrong.add(page + ": " + name + " defaults to " + settings.get(name) + ", the page says " + cell);
            }
        }));
        assertEquals(List.of(), wrong);
    }

    /**
     * "Limits and abuse" lists every bound on what a client, a docs author or a docs host can cost: each setting under
     * these prefixes is named in a row of its tables that states its default, so a new bound cannot go unlisted.
     */
    @Test
    void theLimitsPageListsEveryBoundWithItsDefault() throws IOException {
        List<String> rows = Files.readString(LIMITS_PAGE).lines().filter(line -> ROW.matcher(line).matches()).toList();
        List<String> wrong = new ArrayList<>();
        settings().forEach((name, value) -> {
            if (BOUND_PREFIXES.stream().noneMatch(name::startsWith) || NOT_BOUNDS.contains(name)) {
                return;
            }
            List<String> naming = rows.stream().filter(row -> row.contains("`" + name + "`")).toList();
            if (naming.isEmpty()) {
                wrong.add(name + ": in no row of the limits page");
            } else if (naming.stream().noneMatch(row -> statesBound(row, value.strip()))) {
                wrong.add(name + ": no row naming it states its default, " + value.strip());
            }
        });
        assertEquals(List.of(), wrong);
    }

    /** Whether a row states a bound's default: as written, with thousands separators, in KiB/MiB/GiB, or "none". */
    private static boolean statesBound(String row, String value) {
        List<String> forms = new ArrayList<>(List.of(value));
        if (value.matches("\\d+")) {
            long number = Long.parseLong(value);
            forms.add(String.format(Locale.ROOT, "%,d", number));
            if (number == 0) {
                forms.add("none");
            }
            for (String unit : List.of("KiB", "MiB", "GiB")) {
                number = number % 1024 == 0 ? number / 1024 : -1;
                if (number > 0) {
                    forms.add(number + " " + unit);
                }
            }
        }
        return forms.stream().anyMatch(form -> Pattern.compile("(?<![\\w.,])" + Pattern.quote(form) + "(?!\\d|[.,]\\d)")
                .matcher(row).find());
    }

    @Test
    void noPageNamesASettingThatDoesNotExist() throws IOException {
        Set<String> settings = settings().keySet();
        String code = mainSources();
        List<String> unknown = new ArrayList<>();
        pages().forEach((page, text) -> {
            Matcher name = PROPERTY_NAME.matcher(text);
            while (name.find()) {
                String property = name.group();
                boolean exists = settings.contains(property)
                        || settings.stream().anyMatch(setting -> setting.startsWith(property + "."))
                        || code.contains("\"" + property + "\"") || code.contains("name: " + property + "\n");
                if (!exists) {
                    unknown.add(page + ": " + property);
                }
            }
        });
        assertEquals(List.of(), unknown.stream().distinct().toList(),
                "an assistant.* name on a page is a setting, an exchange property or a span attribute of the code");
    }

    @Test
    void everyEndpointHasAReferencePage() throws IOException {
        Map<String, String> pages = pages();
        Set<String> referenced = new TreeSet<>();
        pages.values().forEach(text -> {
            Matcher api = FRONTMATTER_API.matcher(text);
            if (api.find()) {
                referenced.add(api.group(1) + " " + api.group(2));
            }
        });
        Set<String> operations = new TreeSet<>();
        List<String> missing = new ArrayList<>();
        JsonNode paths = new YAMLMapper().readTree(OPENAPI.toFile()).get("paths");
        paths.fieldNames().forEachRemaining(path -> paths.get(path).fieldNames().forEachRemaining(method -> {
            if (!METHODS.contains(method)) {
                return;
            }
            String operation = method.toUpperCase(Locale.ROOT) + " " + path;
            operations.add(operation);
            boolean documented = method.equals("options")
                    ? pages.values().stream().anyMatch(text -> text.contains("`" + operation + "`"))
                    : referenced.contains(operation);
            if (!documented) {
                missing.add(operation);
            }
        }));
        assertEquals(List.of(), missing, "a page with `openapi: \"METHOD /path\"` (preflights: named on a page)");
        referenced.removeAll(operations);
        assertEquals(Set.of(), referenced, "pages naming an operation the OpenAPI document does not have");
    }

    @Test
    void noPageSaysAFeatureIsPlanned() throws IOException {
        List<String> planned = pages().entrySet().stream()
                .filter(page -> Pattern.compile("(?i)\\bplanned\\b").matcher(page.getValue()).find())
                .map(Map.Entry::getKey).toList();
        assertEquals(List.of(), planned, "the guide describes the product as it is; no page announces features");
    }

    @Test
    void everyLinkBetweenPagesLeadsToAPageAndSection() throws IOException {
        Map<String, Set<String>> anchors = new LinkedHashMap<>();
        pages().forEach((page, text) -> {
            String route = "/" + page.replaceFirst("\\.mdx?$", "");
            anchors.put(route, PageParser.parse(route, text).sections().stream().map(Section::anchor)
                    .collect(Collectors.toSet()));
        });
        List<String> broken = new ArrayList<>();
        pages().forEach((page, text) -> {
            Matcher link = PAGE_LINK.matcher(text);
            while (link.find()) {
                Set<String> target = anchors.get(link.group(1));
                if (target == null || link.group(2) != null && !target.contains(link.group(2))) {
                    broken.add(page + " -> " + link.group());
                }
            }
        });
        assertEquals(List.of(), broken);
    }

    /** application.properties as the service reads it, in file order. */
    private static Map<String, String> settings() throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(PROPERTIES)) {
            properties.load(reader);
        }
        return properties.stringPropertyNames().stream().sorted()
                .collect(Collectors.toMap(name -> name, properties::getProperty, (a, b) -> a, LinkedHashMap::new));
    }

    /**
     * Whether a table cell states this value as a reader sees it: {@code `8080`} for
     * {@code {{env:CAMEL_SERVER_PORT:8080}}}, "empty" for nothing.
     */
    private static boolean states(String cell, String value) {
        Matcher env = ENV_DEFAULT.matcher(value.strip());
        String expected = env.matches() ? env.group(1) : value.strip();
        return expected.isEmpty() ? cell.toLowerCase(Locale.ROOT).contains("empty") : cell.contains("`" + expected + "`");
    }

    /** Each property row of a page's tables: its name and its "Default" (or, for fixed wiring, "Value") cell. */
    private static Map<String, String> documentedDefaults(String page) {
        Map<String, String> defaults = new LinkedHashMap<>();
        int column = -1;
        for (String line : page.lines().toList()) {
            Matcher row = ROW.matcher(line);
            if (!row.matches()) {
                column = -1;
                continue;
            }
            List<String> cells = Stream.of(row.group(1).split(" \\| ")).map(String::strip).toList();
            if (column < 0) {
                column = Math.max(cells.indexOf("Default"), cells.indexOf("Value"));
            } else if (column > 0 && cells.size() > column && cells.get(0).matches("`[a-z][a-z0-9.-]*`")) {
                defaults.putIfAbsent(cells.get(0).replace("`", ""), cells.get(column));
            }
        }
        return defaults;
    }

    /** Every page of the guide by its path in the folder. */
    private static Map<String, String> pages() throws IOException {
        try (Stream<Path> files = Files.walk(GUIDE)) {
            return files.filter(file -> file.toString().endsWith(".mdx"))
                    .collect(Collectors.toMap(file -> GUIDE.relativize(file).toString().replace('\\', '/'),
                            UserGuideTest::read, (a, b) -> a, java.util.TreeMap::new));
        }
    }

    /** The service's Java and YAML sources, where exchange properties and span attributes are named. */
    private static String mainSources() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("src/main"))) {
            return files.filter(file -> file.toString().matches(".*\\.(java|yaml)$") && !file.startsWith(GUIDE))
                    .map(UserGuideTest::read).collect(Collectors.joining("\n"));
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
