package dev.docsassistant.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.SameOnAnyJdk;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Lifecycle;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteMatch;
import org.apache.camel.v1.Integration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CI's check of {@code k8s/} (no cluster here): what {@code kubectl apply -k} would apply for the demo overlay and
 * for Camel K parses against the real API types, mounts only keys that exist, and sets only properties the
 * application reads; and the check itself catches each kind of mistake.
 */
@SameOnAnyJdk
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
        for (String dir : List.of("monitoring", "gateway", "camel-k/pipes")) { // applied beside one of those
            manifests.check(manifests.build(K8S.resolve(dir)));
        }
        assertEquals(List.of(), manifests.problems);

        try (Stream<Path> files = Files.walk(K8S)) { // nothing lies about unused (and so unchecked)
            List<Path> unused = files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".properties"))
                    .filter(f -> !f.startsWith(K8S.resolve("examples")))
                    .filter(f -> !f.equals(K8S.resolve("monitoring/alerts-test.yaml"))) // promtool's: MonitoringTest
                    .map(f -> f.toAbsolutePath().normalize()).filter(f -> !manifests.used.contains(f)).toList();
            assertEquals(List.of(), unused, "files no kustomization uses");
        }
    }

    /**
     * The HTTPRoute carries every public path the service serves: each route's platform-http path (the CORS preflight's
     * catch-all apart), and each again under Mintlify's {@code /discovery} prefix.
     */
    @Test
    void theHttpRouteCarriesEveryPublicPath() throws IOException {
        HTTPRoute route = (HTTPRoute) new Manifests(known).build(K8S.resolve("gateway")).resources().stream()
                .filter(r -> r instanceof HTTPRoute).findFirst().orElseThrow();
        List<HTTPRouteMatch> matches = route.getSpec().getRules().stream().flatMap(r -> r.getMatches().stream())
                .toList();
        Pattern uri = Pattern.compile("uri: platform-http:(/[^?\\s]*)");
        List<String> paths;
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/routes"))) {
            paths = files.flatMap(file -> uri.matcher(read(file)).results().map(m -> m.group(1)))
                    .filter(path -> !path.equals("/*")).map(path -> path.replaceAll("\\{[^}]+}", "x")).toList();
        }
        assertTrue(paths.contains("/dashboard/x"), paths.toString());
        for (String path : paths) {
            for (String served : List.of(path, "/discovery" + path)) {
                assertTrue(matches.stream().anyMatch(m -> m.getPath().getType().equals("Exact")
                        ? served.equals(m.getPath().getValue()) : served.startsWith(m.getPath().getValue() + "/")
                        || served.equals(m.getPath().getValue())), "the HTTPRoute drops " + served);
            }
        }
    }

    /**
     * Every replica of both outputs writes its analytics to the one PostgreSQL of components/postgres: the settings
     * each pod mounts name its Service and database, with the user it creates, and the pod's password comes from the
     * Secret that PostgreSQL starts with (PodAsSpecTest runs both pods against a real PostgreSQL).
     */
    @Test
    void theStoreOfRecordIsOnePostgresqlEveryReplicaShares() {
        Manifests manifests = new Manifests(known);
        for (String dir : List.of("overlays/demo", "camel-k")) {
            Manifests.Build build = manifests.build(K8S.resolve(dir));
            manifests.check(build);
            StatefulSet postgres = (StatefulSet) build.resources().stream()
                    .filter(r -> r instanceof StatefulSet s && s.getMetadata().getName().equals("docs-assistant-postgres"))
                    .findFirst().orElseThrow();
            Container database = postgres.getSpec().getTemplate().getSpec().getContainers().get(0);
            Properties config = settings(build, "docs-assistant-config");
            assertEquals("jdbc:postgresql://docs-assistant-postgres:5432/" + env(database, "POSTGRES_DB").getValue(),
                    config.getProperty("assistant.records.jdbc-url"), dir);
            assertEquals(env(database, "POSTGRES_USER").getValue(), config.getProperty("assistant.records.username"));
            var password = env(database, "POSTGRES_PASSWORD").getValueFrom().getSecretKeyRef();
            String servicePassword = build.resources().stream().filter(r -> r instanceof Deployment d
                    && d.getMetadata().getName().equals("docs-assistant")).findFirst()
                    .map(d -> env(((Deployment) d).getSpec().getTemplate().getSpec().getContainers().get(0),
                            "ASSISTANT_RECORDS_PASSWORD").getValueFrom().getSecretKeyRef().toString())
                    .orElseGet(() -> integration(build).getSpec().getTemplate().getSpec().getContainers().get(0)
                            .getEnv().stream().filter(e -> e.getName().equals("ASSISTANT_RECORDS_PASSWORD"))
                            .map(e -> new io.fabric8.kubernetes.api.model.SecretKeySelector(
                                    e.getValueFrom().getSecretKeyRef().getKey(),
                                    e.getValueFrom().getSecretKeyRef().getName(), null).toString())
                            .findFirst().orElse("none"));
            assertEquals(password.toString(), servicePassword, dir);
        }
        assertEquals(List.of(), manifests.problems);
    }

    private static io.fabric8.kubernetes.api.model.EnvVar env(Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElseThrow(
                () -> new AssertionError(container.getName() + " sets no " + name));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theDemoAndCamelKRunTwoReplicasBesideRedis() {
        Manifests manifests = new Manifests(known);
        Manifests.Build demo = manifests.build(K8S.resolve("overlays/demo"));
        Deployment deployment = (Deployment) demo.resources().stream()
                .filter(r -> r instanceof Deployment && r.getMetadata().getName().equals("docs-assistant"))
                .findFirst().orElseThrow();
        HorizontalPodAutoscaler hpa = (HorizontalPodAutoscaler) demo.resources().stream()
                .filter(r -> r instanceof HorizontalPodAutoscaler).findFirst().orElseThrow();
        assertEquals(deployment.getMetadata().getName(), hpa.getSpec().getScaleTargetRef().getName());
        assertTrue(hpa.getSpec().getMinReplicas() >= 2);
        assertNull(deployment.getSpec().getReplicas(), "the HPA owns the count: an apply must not reset it");
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
    void camelKCreatesItsService() {
        Manifests manifests = new Manifests(known);
        Integration integration = integration(manifests.build(K8S.resolve("camel-k")));
        var traits = integration.getSpec().getTraits();
        // A self-managed image has no sources to detect HTTP in: auto detection would turn the Service off.
        assertEquals(true, traits.getService().getEnabled());
        assertEquals(false, traits.getService().getAuto());
        assertEquals(true, traits.getContainer().getExpose());
        assertEquals(8080L, traits.getContainer().getPort());
        assertEquals(List.of(), manifests.problems);
    }

    /**
     * The JVM settings the benchmarks measured (8,000 streams in a 2 GiB limit, BENCHMARKS.md) are the Containerfile's;
     * Camel K starts the jar with its own {@code jvm.options}, the {@code kamel run} lines of k8s/README.md and the
     * guide repeat them, and so do the production commands of the README and the guide (the heap options, for any JDK):
     * all say the same, so a change to one is made to all.
     */
    @Test
    void camelKRunsTheJvmAsTheContainerfileDoes() throws IOException {
        // the entry point's heap options and its -- options (they silence JDK 24+ warnings on the image's own JDK,
        // which Camel K runs too); not its AOT cache's, the image's file trained in its build
        Matcher shipped = Pattern.compile("^ENTRYPOINT (.+)$", Pattern.MULTILINE)
                .matcher(Files.readString(Path.of("Containerfile")));
        assertTrue(shipped.find(), "the Containerfile has an ENTRYPOINT");
        List<String> options = Stream.of(new ObjectMapper().readValue(shipped.group(1), String[].class))
                .filter(o -> o.startsWith("-XX:") && !o.startsWith("-XX:AOT") || o.startsWith("--")).toList();
        List<String> heap = options.stream().filter(o -> o.startsWith("-XX:")).toList();
        assertFalse(heap.isEmpty(), shipped.group(1));
        Manifests manifests = new Manifests(known);
        assertEquals(options, integration(manifests.build(K8S.resolve("camel-k"))).getSpec().getTraits().getJvm().getOptions());
        Pattern kamelOption = Pattern.compile("-t jvm\\.options=(\\S+)");
        for (Path kamelLine : List.of(K8S.resolve("README.md"), Path.of("src/main/resources/demo-docs/operations/kubernetes.mdx"))) {
            assertEquals(options, kamelOption.matcher(Files.readString(kamelLine)).results().map(m -> m.group(1)).toList(),
                    kamelLine.toString());
        }
        Pattern production = Pattern.compile("^java (-XX:.*) -jar ", Pattern.MULTILINE);
        for (Path command : List.of(Path.of("README.md"), Path.of("src/main/resources/demo-docs/configuration/properties.mdx"))) {
            List<String> lines = production.matcher(Files.readString(command)).results().map(m -> m.group(1)).toList();
            assertEquals(1, lines.size(), command + " has one production command");
            assertTrue(List.of(lines.get(0).split(" ")).containsAll(heap), command + ": " + lines.get(0));
        }
    }

    /**
     * SIGTERM comes after the preStop pause; Camel's shutdown, which holds the streams' grace period, must end before
     * the kubelet's SIGKILL at terminationGracePeriodSeconds. Checked with the settings each manifest mounts.
     */
    @Test
    void podsOutliveThePreStopPauseAndCamelsShutdown() {
        Manifests manifests = new Manifests(known);
        Manifests.Build demo = manifests.build(K8S.resolve("overlays/demo"));
        manifests.check(demo);
        Deployment deployment = (Deployment) demo.resources().stream()
                .filter(r -> r instanceof Deployment && r.getMetadata().getName().equals("docs-assistant"))
                .findFirst().orElseThrow();
        var pod = deployment.getSpec().getTemplate().getSpec();
        assertStopsInTime(pod.getTerminationGracePeriodSeconds(), pod.getContainers().get(0).getLifecycle(),
                settings(demo, "docs-assistant-config"));

        Manifests.Build camelK = manifests.build(K8S.resolve("camel-k"));
        manifests.check(camelK);
        PodSpec template = podTemplate(integration(camelK));
        assertStopsInTime(template.getTerminationGracePeriodSeconds(),
                template.getContainers().get(0).getLifecycle(), settings(camelK, "docs-assistant-config"));
        assertEquals(List.of(), manifests.problems);
    }

    private static void assertStopsInTime(Long gracePeriod, Lifecycle lifecycle, Properties settings) {
        assertNotNull(gracePeriod, "terminationGracePeriodSeconds");
        List<String> sleep = lifecycle.getPreStop().getExec().getCommand();
        assertEquals("sleep", sleep.get(0), sleep.toString());
        long pause = Long.parseLong(sleep.get(1));
        long shutdown = Long.parseLong(settings.getProperty("camel.main.shutdown-timeout"));
        long streams = Long.parseLong(settings.getProperty("assistant.shutdown.grace-seconds"));
        assertTrue(streams < shutdown, "the streams' grace period ends within Camel's shutdown");
        assertTrue(pause > 0 && pause + shutdown < gracePeriod,
                pause + " s pause + " + shutdown + " s shutdown within " + gracePeriod + " s");
    }

    /** Probes wait longer than the slowest readiness check: Redis's, bounded by assistant.redis.timeout-ms. */
    @Test
    void probesWaitLongerThanTheRedisCheck() {
        long redisMillis = Long.parseLong(Manifests.bundledProperty("assistant.redis.timeout-ms"));
        Manifests manifests = new Manifests(known);
        Deployment deployment = (Deployment) manifests.build(K8S.resolve("overlays/demo")).resources().stream()
                .filter(r -> r instanceof Deployment && r.getMetadata().getName().equals("docs-assistant"))
                .findFirst().orElseThrow();
        Container integration = podTemplate(integration(manifests.build(K8S.resolve("camel-k")))).getContainers()
                .get(0);
        for (Container container : List.of(deployment.getSpec().getTemplate().getSpec().getContainers().get(0),
                integration)) {
            for (Probe probe : List.of(container.getStartupProbe(), container.getLivenessProbe(),
                    container.getReadinessProbe())) {
                Integer timeout = probe.getTimeoutSeconds(); // unset is Kubernetes's default, 1 s
                assertTrue(timeout != null && timeout * 1000L > redisMillis,
                        container.getName() + ": " + timeout + " s, Redis " + redisMillis + " ms");
            }
        }
    }

    /**
     * Camel K's operator calls the readiness probe of every unready pod and sets the Integration's phase to Error
     * when the 503's body lists a check that is not UP (monitor.go, probeReadiness, 2.4 to 2.10): the Integration's
     * settings keep the checks out of the probes' answers, so a pod indexing or waiting for Redis is no error.
     */
    @Test
    void camelKProbesAnswerWithoutChecks() {
        Manifests manifests = new Manifests(known);
        Manifests.Build camelK = manifests.build(K8S.resolve("camel-k"));
        manifests.check(camelK);
        assertEquals("oneline", settings(camelK, "docs-assistant-config").getProperty("camel.health.exposure-level"));
        assertEquals("/observe/health/ready", podTemplate(integration(camelK)).getContainers().get(0)
                .getReadinessProbe().getHttpGet().getPath(), "no query string: the operator's probe call would lose it");
    }

    /** The Integration's pod template as Kubernetes's own type (the CRD model has a class per field). */
    private static PodSpec podTemplate(Integration integration) {
        return new ObjectMapper().convertValue(integration.getSpec().getTemplate().getSpec(), PodSpec.class);
    }

    private static Integration integration(Manifests.Build build) {
        return (Integration) build.resources().stream().filter(r -> r instanceof Integration).findFirst().orElseThrow();
    }

    /** The application.properties of the ConfigMap a build mounts as its settings. */
    private static Properties settings(Manifests.Build build, String configMap) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(build.configMaps().get(configMap).get("application.properties")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
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

    /**
     * Both deployments serve a domain from a Git repository with no docs volume: its tenants file entry names the
     * credential and webhook secret as files of a Secret that the pod mounts where the names point, never the
     * secrets themselves; the fetched repository has a volume of its own.
     */
    @Test
    void aDomainIsServedFromGitWithItsCredentialFromASecret() throws IOException {
        Manifests manifests = new Manifests(known);
        for (String dir : List.of("overlays/demo", "camel-k")) {
            Manifests.Build build = manifests.build(K8S.resolve(dir));
            manifests.check(build); // collects the Secrets the manifests declare beside those generated
            var tenants = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
                    .readTree(build.secrets().get("docs-assistant-secrets").get("tenants.yaml"));
            var docs = tenants.findValues("docs").stream().filter(d -> d.has("git")).findFirst()
                    .orElseThrow(() -> new AssertionError(dir + ": no domain served from Git"));
            assertTrue(docs.get("git").asText().startsWith("https://"), dir);
            Map<String, String> git = build.secrets().get("docs-assistant-git");
            assertNotNull(git, dir + ": the docs-assistant-git Secret");
            for (String field : List.of("credentials", "webhookSecret")) {
                String file = docs.get(field).asText();
                assertTrue(file.startsWith("/etc/docs-assistant/git/"), dir + ": " + field + " names a file");
                assertTrue(git.containsKey(file.substring(file.lastIndexOf('/') + 1)), dir + ": " + file);
                assertTrue(git.values().stream().noneMatch(secret -> secret.strip().equals(file)), dir);
            }
            for (HasMetadata resource : build.resources()) {
                if (resource instanceof Deployment deployment
                        && deployment.getMetadata().getName().equals("docs-assistant")) {
                    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
                    String volume = pod.getContainers().get(0).getVolumeMounts().stream()
                            .filter(m -> m.getMountPath().equals("/etc/docs-assistant/git")).findFirst()
                            .orElseThrow().getName();
                    assertEquals("docs-assistant-git", pod.getVolumes().stream()
                            .filter(v -> v.getName().equals(volume)).findFirst().orElseThrow()
                            .getSecret().getSecretName());
                    assertTrue(pod.getContainers().get(0).getEnv().stream().anyMatch(
                            e -> e.getName().equals("ASSISTANT_SOURCES_DIR")), dir);
                } else if (resource instanceof Integration integration) {
                    assertTrue(integration.getSpec().getTraits().getMount().getResources()
                            .contains("secret:docs-assistant-git@/etc/docs-assistant/git"), dir);
                }
            }
        }
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
                    service: {enabled: true, ports: ["management;9876;9876"]}
                ---
                apiVersion: camel.apache.org/v1
                kind: Integration
                metadata: {name: j}
                spec:
                  template: {spec: {terminationGracePeriodSeconds: "50"}}
                  traits:
                    camel: {properties: [assistant.routes-dir=/r]}
                    mount: {configs: ["configmap:config"]}
                    environment: {vars: [CAMEL_MAIN_CLOUD_PROPERTIES_LOCATION=/etc/docs-assistant/config]}
                    logging: {level: DEBUG}
                """);
        Manifests manifests = new Manifests(known);
        Manifests.Build build = manifests.build(dir);
        manifests.check(build);
        String problems = String.join("\n", manifests.problems);
        for (String expected : List.of("deployment.yaml: not a valid apps/v1/Deployment", "\"replica\"",
                "integration.yaml: not a valid camel.apache.org/v1/Integration", "\"readinesProbeEnabled\"",
                "assistant.rotes-dir is no property", "ASSISTANT_NO_SUCH is no property",
                "ConfigMap config has no key other.properties",
                // The CRD's schema: a string where the API wants a number (the model would take it).
                "integration.yaml: not valid for Camel K 2.4.0: /spec/template/spec/terminationGracePeriodSeconds",
                "integration.yaml: not valid for Camel K 2.10.1: /spec/traits/health: property 'readinesProbeEnabled'",
                "integration.yaml: not valid for Camel K 2.4.0: /spec/traits/service: property 'ports'",
                // Camel K's channels where the application would not read them, and the trait logback ignores.
                "[camel.properties assistant.routes-dir, mount.configs configmap:config] land in /etc/camel/conf.d",
                "the logging trait configures Quarkus's logging")) {
            assertTrue(problems.contains(expected), "expected \"" + expected + "\" among\n" + problems);
        }
        assertTrue(!problems.contains("CAMEL_MAIN_SHUTDOWN_TIMEOUT") && !problems.contains("assistant.routes-dir ")
                && !problems.contains("2.10.1: /spec/traits/service"), problems); // service.ports came with 2.8
        assertEquals(List.of("e", "j"), build.resources().stream().map(r -> r.getMetadata().getName()).toList(),
                "only the valid Deployment and the Integration the model accepts parsed");
    }
}
