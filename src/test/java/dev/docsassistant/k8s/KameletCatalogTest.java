package dev.docsassistant.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.docsassistant.SameOnAnyJdk;
import org.apache.camel.v1.Pipe;
import org.apache.camel.v1.pipespec.Steps;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our Kamelets as apache/camel-kamelets' catalogue writes its own (the rules its validator applies): a type label,
 * the annotations a catalogue UI shows (icon, catalog version, support level, provider, group), every property
 * titled, described and typed, every required one declared; and the Pipe example in k8s/camel-k/pipes using one as
 * Camel K would: each step a Kamelet of ours, every required property set, none it does not declare.
 */
@SameOnAnyJdk
class KameletCatalogTest {

    private static final Path KAMELETS = Path.of("src/main/resources/kamelets");
    private static final Set<String> SUPPORT_LEVELS = Set.of("Stable", "Preview", "Deprecated");
    private static final Map<String, JsonNode> BY_NAME = new HashMap<>();

    @BeforeAll
    static void read() throws IOException {
        try (Stream<Path> files = Files.list(KAMELETS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".kamelet.yaml")).toList()) {
                JsonNode kamelet = new YAMLMapper().readTree(file.toFile());
                assertEquals(file.getFileName().toString(), kamelet.at("/metadata/name").asText() + ".kamelet.yaml");
                BY_NAME.put(kamelet.at("/metadata/name").asText(), kamelet);
            }
        }
        assertFalse(BY_NAME.isEmpty());
    }

    @Test
    void everyKameletIsAnnotatedAndDefinedAsTheCatalogueDoes() throws IOException {
        String version = projectVersion();
        BY_NAME.forEach((name, kamelet) -> {
            JsonNode annotations = kamelet.at("/metadata/annotations");
            assertTrue(Set.of("source", "sink", "action").contains(
                    kamelet.at("/metadata/labels/camel.apache.org~1kamelet.type").asText()), name);
            assertTrue(SUPPORT_LEVELS.contains(annotations.path("camel.apache.org/kamelet.support.level").asText()),
                    name);
            assertEquals(version, annotations.path("camel.apache.org/catalog.version").asText(), name);
            String icon = annotations.path("camel.apache.org/kamelet.icon").asText();
            assertTrue(icon.startsWith("data:image/svg+xml;base64,"), name);
            String svg = new String(Base64.getDecoder().decode(icon.substring(icon.indexOf(',') + 1)),
                    StandardCharsets.UTF_8);
            assertTrue(svg.startsWith("<svg") && svg.endsWith("</svg>"), name + ": " + svg);
            for (String key : List.of("camel.apache.org/provider", "camel.apache.org/kamelet.group")) {
                assertFalse(annotations.path(key).asText().isBlank(), name + " " + key);
            }
            JsonNode definition = kamelet.at("/spec/definition");
            assertFalse(definition.path("title").asText().isBlank(), name);
            assertFalse(definition.path("description").asText().isBlank(), name);
            definition.path("properties").fields().forEachRemaining(property -> {
                for (String field : List.of("title", "description", "type")) {
                    assertFalse(property.getValue().path(field).asText().isBlank(),
                            name + "." + property.getKey() + " has no " + field);
                }
            });
            definition.path("required").forEach(required -> assertTrue(
                    definition.path("properties").has(required.asText()), name + " requires " + required));
        });
    }

    @Test
    void thePipeUsesOurKameletsWithTheirRequiredProperties() throws IOException {
        Manifests manifests = new Manifests(Set.of());
        List<Pipe> pipes = manifests.build(Path.of("k8s/camel-k/pipes")).resources().stream()
                .filter(r -> r instanceof Pipe).map(Pipe.class::cast).toList();
        assertEquals(List.of(), manifests.problems);
        assertFalse(pipes.isEmpty());
        ObjectMapper json = new ObjectMapper();
        List<String> used = new ArrayList<>();
        for (Pipe pipe : pipes) {
            assertNotNull(pipe.getSpec().getSource(), pipe.getMetadata().getName());
            assertNotNull(pipe.getSpec().getSink(), "Camel K refuses a Pipe without a sink: " + pipe.getMetadata()
                    .getName());
            for (Steps step : pipe.getSpec().getSteps()) {
                assertEquals("Kamelet", step.getRef().getKind());
                JsonNode kamelet = BY_NAME.get(step.getRef().getName());
                assertNotNull(kamelet, "no Kamelet " + step.getRef().getName() + " in " + KAMELETS);
                assertEquals("action", kamelet.at("/metadata/labels/camel.apache.org~1kamelet.type").asText());
                JsonNode given = json.valueToTree(step.getProperties());
                JsonNode definition = kamelet.at("/spec/definition");
                definition.path("required").forEach(required -> assertTrue(given.has(required.asText()),
                        step.getRef().getName() + " needs " + required));
                given.fieldNames().forEachRemaining(property -> assertTrue(
                        definition.path("properties").has(property), step.getRef().getName() + " has no " + property));
                used.add(step.getRef().getName());
            }
        }
        assertFalse(used.isEmpty(), "a Kamelet of ours in a Pipe");
    }

    /** The version the build wrote (src/main/resources-filtered): the catalogue version our Kamelets carry. */
    private static String projectVersion() throws IOException {
        Properties build = new Properties();
        try (InputStream in = KameletCatalogTest.class.getResourceAsStream("/docs-assistant-build.properties")) {
            build.load(in);
        }
        return build.getProperty("version");
    }
}
