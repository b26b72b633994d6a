package dev.docsassistant;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The bundled route files are named one by one in assistant.bundled-routes (a wildcard costs seconds of start-up in
 * a jar): every file in src/main/resources/routes is named there, and nothing else.
 */
class BundledRoutesTest {

    @Test
    void everyBundledRouteFileIsLoaded() throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(reader);
        }
        Set<String> named = Arrays.stream(properties.getProperty("assistant.bundled-routes").split(","))
                .map(String::strip).filter(entry -> entry.startsWith("classpath:routes/"))
                .map(entry -> entry.substring("classpath:routes/".length()))
                .collect(Collectors.toCollection(TreeSet::new));
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/routes"))) {
            assertEquals(files.map(file -> file.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new)), named);
        }
    }
}
