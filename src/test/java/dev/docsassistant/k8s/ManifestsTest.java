package dev.docsassistant.k8s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Probe;
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
        assertEquals(List.of(), manifests.problems);
    }

    @Test
    void probesAndScrapesUseTheManagementPortWhichNoServiceExposes() throws IOException {
        String port = managementPort();
        Manifests manifests = new Manifests(known);
        Manifests.Build demo = manifests.build(K8S.resolve("overlays/demo"));
        Deployment deployment = (Deployment) demo.resources().stream()
                .filter(r -> r instanceof Deployment && r.getMetadata().getName().equals("docs-assistant"))
                .findFirst().orElseThrow();
        assertEquals(port, deployment.getSpec().getTemplate().getMetadata().getAnnotations().get("prometheus.io/port"));
        Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertTrue(container.getPorts().stream().anyMatch(p -> p.getName().equals("management")
                && p.getContainerPort().toString().equals(port)), container.getPorts().toString());
        for (Probe probe : List.of(container.getStartupProbe(), container.getLivenessProbe(),
                container.getReadinessProbe())) {
            assertEquals("management", probe.getHttpGet().getPort().getStrVal());
            assertTrue(probe.getHttpGet().getPath().startsWith("/observe/health/"), probe.getHttpGet().getPath());
        }
        Service service = (Service) demo.resources().stream()
                .filter(r -> r instanceof Service && r.getMetadata().getName().equals("docs-assistant"))
                .findFirst().orElseThrow();
        assertTrue(service.getSpec().getPorts().stream().noneMatch(p -> "management".equals(p.getTargetPort().getStrVal())
                || port.equals(String.valueOf(p.getTargetPort().getIntVal()))), "the Service exposes the API only");

        Integration integration = (Integration) manifests.build(K8S.resolve("camel-k")).resources().stream()
                .filter(r -> r instanceof Integration).findFirst().orElseThrow();
        var pod = integration.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("integration", pod.getName(), "merged into Camel K's own container");
        assertTrue(pod.getPorts().stream().anyMatch(p -> p.getName().equals("management")
                && p.getContainerPort().toString().equals(port)));
        assertEquals("/observe/health/ready", pod.getReadinessProbe().getHttpGet().getPath());
        assertEquals("management", pod.getReadinessProbe().getHttpGet().getPort().getStrVal());
        assertEquals("management", pod.getLivenessProbe().getHttpGet().getPort().getStrVal());
        assertEquals("management", pod.getStartupProbe().getHttpGet().getPort().getStrVal());
        assertEquals(List.of(), manifests.problems);
    }

    @Test
    void redisMeetsTheRestrictedPodSecurityLevelAndBoundsItsMemory() {
        Manifests manifests = new Manifests(known);
        Deployment redis = (Deployment) manifests.build(K8S.resolve("overlays/demo")).resources().stream()
                .filter(r -> r instanceof Deployment && r.getMetadata().getName().equals("docs-assistant-redis"))
                .findFirst().orElseThrow();
        var pod = redis.getSpec().getTemplate().getSpec();
        assertTrue(pod.getSecurityContext().getRunAsNonRoot());
        assertTrue(pod.getSecurityContext().getRunAsUser() > 0);
        assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType());
        Container container = pod.getContainers().get(0);
        assertEquals(false, container.getSecurityContext().getAllowPrivilegeEscalation());
        assertEquals(List.of("ALL"), container.getSecurityContext().getCapabilities().getDrop());
        assertTrue(container.getSecurityContext().getReadOnlyRootFilesystem());
        String args = String.join(" ", container.getArgs());
        assertTrue(args.contains("--maxmemory ") && args.contains("--maxmemory-policy volatile-lfu"), args);
        assertTrue(pod.getVolumes().stream().allMatch(v -> v.getEmptyDir() != null), "writable only through emptyDir");
    }

    /** The management port's default, from application.properties ({{env:CAMEL_MANAGEMENT_PORT:9876}}). */
    private static String managementPort() throws IOException {
        Matcher port = Pattern.compile("(?m)^camel\\.management\\.port = \\{\\{env:CAMEL_MANAGEMENT_PORT:(\\d+)}}$")
                .matcher(Files.readString(Path.of("src/main/resources/application.properties")));
        assertTrue(port.find(), "camel.management.port in application.properties");
        return port.group(1);
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
