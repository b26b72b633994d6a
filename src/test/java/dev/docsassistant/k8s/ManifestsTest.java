package dev.docsassistant.k8s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.apache.camel.v1.Integration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CI's check of {@code k8s/} (no cluster here): what {@code kubectl apply -k} would apply for the demo overlay and
 * for Camel K parses against the real API types, mounts only keys that exist, and sets only properties the
 * application reads; and the check itself catches each kind of mistake.
 */
class ManifestsTest {

    private static final Path K8S = Path.of("k8s");
    private static Set<String> known;

    @BeforeAll
    static void knownProperties() throws IOException {
        known = Manifests.knownProperties(Path.of("src/main/resources/application.properties"));
    }

    @Test
    void everyBuildIsValid() throws IOException {
        Manifests manifests = new Manifests(known);
        for (String dir : List.of("overlays/demo", "camel-k")) {
            Manifests.Build build = manifests.build(K8S.resolve(dir));
            manifests.check(build);
            assertTrue(build.resources().stream().anyMatch(r -> r instanceof Deployment || r instanceof Integration),
                    dir + " runs the service");
        }
        assertEquals(List.of(), manifests.problems);

        try (Stream<Path> files = Files.walk(K8S)) { // nothing lies about unused (and so unchecked)
            List<Path> unused = files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".properties"))
                    .filter(f -> !f.startsWith(K8S.resolve("examples")))
                    .map(f -> f.toAbsolutePath().normalize()).filter(f -> !manifests.used.contains(f)).toList();
            assertEquals(List.of(), unused, "files no kustomization uses");
        }
    }

    @Test
    void theDemoAndCamelKRunTwoReplicasBesideRedis() {
        Manifests manifests = new Manifests(known);
        Manifests.Build demo = manifests.build(K8S.resolve("overlays/demo"));
        Deployment deployment = (Deployment) demo.resources().stream()
                .filter(r -> r instanceof Deployment && r.getMetadata().getName().equals("docs-assistant"))
                .findFirst().orElseThrow();
        assertTrue(deployment.getSpec().getReplicas() >= 2);
        assertTrue(demo.resources().stream().anyMatch(r -> r instanceof Service
                && r.getMetadata().getName().equals("docs-assistant-redis")), "the demo has its Redis");

        Integration integration = (Integration) manifests.build(K8S.resolve("camel-k")).resources().stream()
                .filter(r -> r instanceof Integration).findFirst().orElseThrow();
        assertTrue(integration.getSpec().getReplicas() >= 2);
        assertEquals("/observe/health/ready", integration.getSpec().getTraits().getHealth().getReadinessProbe());
        assertEquals(List.of(), manifests.problems);
    }

    @Test
    void catchesUnknownFieldsMissingKeysAndUnknownProperties(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("kustomization.yaml"), """
                resources: [deployment.yaml, integration.yaml]
                configMapGenerator:
                  - name: config
                    files: [application.properties]
                """);
        Files.writeString(dir.resolve("application.properties"), "assistant.routes-dir = /r\nassistant.rotes-dir = /r\n");
        Files.writeString(dir.resolve("deployment.yaml"), """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: d}
                spec:
                  replica: 2
                  selector: {matchLabels: {app: d}}
                  template:
                    metadata: {labels: {app: d}}
                    spec:
                      containers: [{name: c, image: i, env: [{name: CAMEL_MAIN_SHUTDOWN_TIMEOUT, value: "5"}]}]
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: e}
                spec:
                  selector: {matchLabels: {app: e}}
                  template:
                    metadata: {labels: {app: e}}
                    spec:
                      containers: [{name: c, image: i, env: [{name: ASSISTANT_NO_SUCH, value: "1"}]}]
                      volumes:
                        - name: v
                          configMap: {name: config, items: [{key: other.properties, path: p}]}
                """);
        Files.writeString(dir.resolve("integration.yaml"), """
                apiVersion: camel.apache.org/v1
                kind: Integration
                metadata: {name: i}
                spec:
                  traits:
                    health: {readinessProbe: /ready, readinesProbeEnabled: true}
                    mount: {resources: ["secret:missing@/s"]}
                """);
        Manifests manifests = new Manifests(known);
        Manifests.Build build = manifests.build(dir);
        manifests.check(build);
        String problems = String.join("\n", manifests.problems);
        for (String expected : List.of("deployment.yaml: not a valid apps/v1/Deployment", "\"replica\"",
                "integration.yaml: not a valid camel.apache.org/v1/Integration", "\"readinesProbeEnabled\"",
                "assistant.rotes-dir is no property", "ASSISTANT_NO_SUCH is no property",
                "ConfigMap config has no key other.properties")) {
            assertTrue(problems.contains(expected), "expected \"" + expected + "\" among\n" + problems);
        }
        assertTrue(!problems.contains("CAMEL_MAIN_SHUTDOWN_TIMEOUT") && !problems.contains("assistant.routes-dir "),
                problems);
        assertEquals(1, build.resources().stream().filter(HasMetadata.class::isInstance).count(),
                "only the valid Deployment parsed");
    }
}
