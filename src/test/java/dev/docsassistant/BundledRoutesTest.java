package dev.docsassistant;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The bundled route files are named one by one in assistant.bundled-routes (a wildcard costs seconds of start-up in
 * a jar): every file in src/main/resources/routes is named there, and nothing else. camel-main creates their beans
 * file by file in that order, and a bean's {@code #bean:} reference is looked up as it is created, so each reference
 * names a bean declared above it in its file or in a file listed earlier (the internal wiring before the steps).
 */
class BundledRoutesTest {

    private static final Path ROUTES = Path.of("src/main/resources/routes");
    private static final Pattern DECLARED = Pattern.compile("^\\s*- name: (\\S+)\\s*$");
    private static final Pattern REFERENCE = Pattern.compile("#bean:([^\"\\s]+)");

    @Test
    void everyBundledRouteFileIsLoaded() throws IOException {
        Set<String> named = new TreeSet<>(bundled());
        try (Stream<Path> files = Files.list(ROUTES)) {
            assertEquals(files.map(file -> file.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new)), named);
        }
    }

    @Test
    void everyBeanReferenceNamesABeanCreatedBeforeIt() throws IOException {
        Set<String> created = new HashSet<>();
        List<String> unresolved = new ArrayList<>();
        for (String file : bundled()) {
            for (String line : Files.readAllLines(ROUTES.resolve(file))) {
                if (line.strip().startsWith("#")) {
                    continue; // a comment
                }
                Matcher reference = REFERENCE.matcher(line);
                while (reference.find()) {
                    if (!created.contains(reference.group(1))) {
                        unresolved.add(file + ": " + line.strip());
                    }
                }
                Matcher declared = DECLARED.matcher(line);
                if (declared.matches()) {
                    created.add(declared.group(1));
                }
            }
        }
        assertEquals(List.of(), unresolved);
    }

    /** The bundled route files in the order camel-main loads them. */
    private static List<String> bundled() throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(reader);
        }
        return Arrays.stream(properties.getProperty("assistant.bundled-routes").split(","))
                .map(String::strip).filter(entry -> entry.startsWith("classpath:routes/"))
                .map(entry -> entry.substring("classpath:routes/".length()))
                .toList();
    }
}
