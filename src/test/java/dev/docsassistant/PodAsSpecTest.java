package dev.docsassistant;

import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The pod as its spec says (issue 50): each kustomize output that runs the service ({@code kubectl kustomize} of every
 * overlay, and of Camel K's), rendered, and the service run the way its pod would run it. The container's environment
 * (every {@code secretKeyRef} and {@code configMapKeyRef} resolved against the rendered Secrets and ConfigMaps: a name
 * or key that resolves to nothing fails), its command (the image's entry point from the Containerfile, or Camel K's
 * {@code java <jvm options> -jar <jar>}), the image's environment and working directory, each ConfigMap and Secret
 * volume's files at its mount path, read-only, each emptyDir a tmpfs, a read-only root file system, and the user the
 * security context names (bubblewrap; as root the JVM is started as that uid with no capabilities, else in a user
 * namespace). Redis and PostgreSQL are real servers on loopback in place of the in-cluster Services: Redis gets the
 * component's ACL user with the password from the rendered Secret, PostgreSQL the database the component's StatefulSet
 * creates. What differs from a cluster, and why: the manifest's values naming a Service host ({@code
 * docs-assistant-redis:6379}…) are overridden by environment variables naming the loopback server instead, the API
 * and management ports by free ones (the sandbox shares the host's network), and the jar at {@code
 * /deployments/docs-assistant.jar} is the same classes from Maven's class path mounted under {@code /deployments}
 * (the test phase runs before the jar is packaged) started with the jar's Main-Class. A Camel K pod runs on a
 * read-only root too: its spec does not ask for one, but the image's files are root's and the pod's user can write
 * only where its volumes are. Then a question is answered over real HTTP, rated, and read back from the analytics
 * API and from the PostgreSQL every replica shares; with JSON logs configured, every line the pod writes is JSON.
 */
@SameOnAnyJdk
class PodAsSpecTest {

    private static final Path K8S = Path.of("k8s");
    private static final ObjectMapper YAML = YAMLMapper.builder().build();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The demo tenant's keys (tenants.yaml stores their hashes). */
    private static final String KEY = "mint_dsc_demo_change_me";
    private static final String ADMIN_KEY = "mint_adm_demo_change_me";
    private static final Pattern SERVICE_ADDRESS = Pattern.compile("//([a-z0-9-]+):(\\d+)");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Process pod;

    /** Every overlay, and Camel K's output (base is no output of its own: its Secrets come from an overlay). */
    static Stream<String> outputs() throws IOException {
        List<String> outputs = new ArrayList<>();
        try (Stream<Path> overlays = Files.list(K8S.resolve("overlays"))) {
            overlays.filter(Files::isDirectory).sorted().forEach(o -> outputs.add("overlays/" + o.getFileName()));
        }
        outputs.add("camel-k");
        return outputs.stream();
    }

    @ParameterizedTest
    @MethodSource("outputs")
    void theRenderedPodAnswersAndItsAnalyticsLandInTheSharedStore(String output) throws Exception {
        Assumptions.assumeTrue(RedisServer.onPath("bwrap"), "bwrap (Debian bubblewrap) is needed to run the pod");
        Path java = java25();
        Rendered rendered = Rendered.of(render(K8S.resolve(output)));
        PodSpec spec = rendered.pod(output);
        Path scratch = Files.createTempDirectory("pod-as-spec");
        try (RedisServer redis = RedisServer.startOrSkip(); PostgresServer postgres = PostgresServer.startOrSkip()) {
            Map<String, String> env = new LinkedHashMap<>(spec.env());
            env.putAll(inPlaceOfServices(rendered, spec, redis, postgres));
            int port = OwnJvmService.freePort();
            int managementPort = OwnJvmService.freePort();
            env.put("CAMEL_SERVER_PORT", Integer.toString(port));
            env.put("CAMEL_MANAGEMENT_PORT", Integer.toString(managementPort));

            Path log = Path.of("target/pod-as-spec-" + output.replace('/', '-') + ".log").toAbsolutePath();
            pod = Sandbox.start(spec, env, java, scratch, log);
            try {
                OwnJvmService.awaitHealthy(http, managementPort, 120, pod);
            } catch (AssertionError notHealthy) {
                fail(notHealthy.getMessage() + ": " + Files.readString(log));
            }

            URI api = URI.create("http://127.0.0.1:" + port);
            String question = "How do I change the port?";
            HttpResponse<String> answer = http.send(post(api, "/v1/assistant/demo/message", KEY,
                    ServiceTest.question(question)), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
            String thread = answer.headers().firstValue("X-Thread-Id").orElseThrow();
            ObjectNode rating = JSON.createObjectNode().put("fp", "fp-test").put("threadId", thread)
                    .put("messageId", FeedbackTest.messageId(answer)).put("rating", "up");
            HttpResponse<String> rated = http.send(post(api, "/v1/assistant/demo/feedback", KEY, rating.toString()),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, rated.statusCode(), rated.body());

            JsonNode conversations = awaitAnalytics(api, "/v1/analytics/demo/assistant", "conversations", thread);
            assertTrue(conversations.toString().contains(question), conversations.toString());
            awaitAnalytics(api, "/v1/analytics/demo/feedback", "feedback", thread);
            try (Connection db = DriverManager.getConnection(postgresUrl(rendered, postgres), PostgresServer.USER, "");
                    ResultSet turns = db.createStatement().executeQuery("SELECT COUNT(*) FROM turns")) {
                turns.next();
                assertEquals(1, turns.getInt(1), "the turn is in the PostgreSQL every replica shares");
            }

            pod.descendants().forEach(ProcessHandle::destroy); // SIGTERM to the JVM, as the kubelet sends it
            assertTrue(pod.waitFor(60, TimeUnit.SECONDS), "the pod stops; see " + log);
            if ("json".equals(spec.env().get("ASSISTANT_LOG_FORMAT"))) {
                List<String> notJson = Files.readAllLines(log).stream().filter(line -> !isJson(line)).toList();
                assertEquals(List.of(), notJson, "JSON logs configured: every line the pod writes is JSON");
            }
        } finally {
            Sandbox.delete(scratch);
        }
    }

    /**
     * A Secret name the output does not define fails the test before any pod runs: Camel K's Integration naming the
     * generated Secret by its unhashed name, as it did before kustomizeconfig.yaml told kustomize where to rewrite it.
     */
    @Test
    void aSecretNameThatResolvesToNothingFails() throws Exception {
        String yaml = render(K8S.resolve("camel-k"));
        Matcher hashed = Pattern.compile("name: (docs-assistant-postgres-[a-z0-9]{10})\\n").matcher(yaml);
        assertTrue(hashed.find(), "the generated Secret's hashed name");
        int integration = yaml.indexOf("kind: Integration");
        String unhashed = yaml.substring(0, integration)
                + yaml.substring(integration).replace(hashed.group(1), "docs-assistant-postgres");
        AssertionError refused = assertThrows(AssertionError.class,
                () -> Rendered.of(unhashed).pod("camel-k"));
        assertTrue(refused.getMessage().contains("ASSISTANT_RECORDS_PASSWORD names Secret docs-assistant-postgres, "
                + "which the output does not define"), refused.getMessage());
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (pod != null && pod.isAlive()) {
            pod.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Environment variables naming the loopback servers where the pod's settings (its environment or the properties
     * files it mounts) name a Service of the output: the setting's value with only the host and port replaced.
     */
    private static Map<String, String> inPlaceOfServices(Rendered rendered, PodSpec spec, RedisServer redis,
            PostgresServer postgres) throws Exception {
        String redisUser = "docs-assistant";
        JsonNode valkey = rendered.container("Deployment", "docs-assistant-redis");
        List<String> args = new ArrayList<>();
        valkey.path("args").forEach(a -> args.add(a.asText()));
        int user = args.indexOf(redisUser);
        assertTrue(user > 0 && args.get(user - 1).equals("--user"), "the Redis component's ACL user: " + args);
        List<String> acl = new ArrayList<>(List.of("ACL", "SETUSER", redisUser));
        Map<String, String> valkeyEnv = rendered.env(valkey, "the Redis component");
        for (String rule : args.subList(user + 1, args.size())) {
            if (rule.startsWith("--")) {
                break;
            }
            acl.add(rule.replace("$(REDIS_PASSWORD)", valkeyEnv.get("REDIS_PASSWORD")));
        }
        assertEquals("OK", redis.cli(acl.toArray(String[]::new)).strip(), "the component's ACL: " + acl);

        JsonNode pg = rendered.container("StatefulSet", "docs-assistant-postgres");
        Map<String, String> pgEnv = rendered.env(pg, "the PostgreSQL component");
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(), PostgresServer.USER, "")) {
            db.createStatement().execute("CREATE DATABASE \"" + pgEnv.get("POSTGRES_DB") + "\"");
            if (!pgEnv.get("POSTGRES_USER").equals(PostgresServer.USER)) {
                db.createStatement().execute("CREATE ROLE \"" + pgEnv.get("POSTGRES_USER") + "\" LOGIN SUPERUSER");
            }
        }
        Map<String, Integer> loopback = Map.of("docs-assistant-redis", redis.port(),
                "docs-assistant-postgres", URI.create(postgres.jdbcUrl().substring(5)).getPort());

        Map<String, String> settings = new LinkedHashMap<>();
        for (Map<String, String> files : spec.mounts().values()) {
            files.forEach((name, content) -> {
                if (name.endsWith(".properties")) {
                    Properties properties = new Properties();
                    try {
                        properties.load(new StringReader(content));
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                    properties.stringPropertyNames().forEach(p -> settings.put(
                            p.toUpperCase().replaceAll("[.-]", "_"), properties.getProperty(p)));
                }
            });
        }
        settings.putAll(spec.env());
        Map<String, String> overrides = new LinkedHashMap<>();
        Set<String> named = new LinkedHashSet<>();
        settings.forEach((variable, value) -> {
            Matcher address = SERVICE_ADDRESS.matcher(value);
            if (address.find() && rendered.services().contains(address.group(1))) {
                Integer local = loopback.get(address.group(1));
                assertTrue(local != null, variable + " names Service " + address.group(1) + ", which this test has "
                        + "no server for");
                overrides.put(variable, address.replaceFirst("//127.0.0.1:" + local));
                named.add(address.group(1));
            }
        });
        assertEquals(loopback.keySet(), named, "the pod's settings name both Services: " + overrides);
        return overrides;
    }

    private static String postgresUrl(Rendered rendered, PostgresServer postgres) {
        String database = rendered.env(rendered.container("StatefulSet", "docs-assistant-postgres"), "PostgreSQL")
                .get("POSTGRES_DB");
        return postgres.jdbcUrl().replaceFirst("/postgres$", "/" + database);
    }

    private static boolean isJson(String line) {
        try {
            return JSON.readTree(line).isObject();
        } catch (IOException e) {
            return false;
        }
    }

    /** The image's JVM is a JDK 25 (Containerfile), whose options JDK 17 does not know: this one, or one beside it. */
    private static Path java25() throws IOException {
        return OwnJvmService.jdk(feature -> feature >= 25).map(OwnJvmService.Jdk::java).orElseGet(() -> {
            Assumptions.abort("the image runs a JDK 25 (its entry point's options need one): none beside this JVM, "
                    + "pod-as-spec test skipped");
            return null;
        });
    }

    /** {@code kubectl kustomize dir}, or {@code kustomize build dir}; skipped when neither is installed. */
    private static String render(Path dir) throws IOException, InterruptedException {
        List<String> command = RedisServer.onPath("kubectl") ? List.of("kubectl", "kustomize", dir.toString())
                : RedisServer.onPath("kustomize") ? List.of("kustomize", "build", dir.toString()) : null;
        Assumptions.assumeTrue(command != null, "neither kubectl nor kustomize is installed: the manifests cannot "
                + "be rendered, pod-as-spec test skipped");
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String yaml = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), String.join(" ", command) + " fails");
        return yaml;
    }

    /** The analytics rows of {@code list} for the thread, once the writer has written them. */
    private JsonNode awaitAnalytics(URI api, String path, String list, String thread) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            HttpResponse<String> rows = http.send(HttpRequest.newBuilder(api.resolve(path))
                    .header("Authorization", "Bearer " + ADMIN_KEY).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, rows.statusCode(), path + ": " + rows.body());
            if (rows.body().contains(thread)) {
                return JSON.readTree(rows.body()).path(list);
            }
            if (System.nanoTime() > deadline) {
                fail(path + " never lists thread " + thread + ": " + rows.body());
            }
            Thread.sleep(200);
        }
    }

    private static HttpRequest post(URI api, String path, String key, String body) {
        return HttpRequest.newBuilder(api.resolve(path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    /**
     * What the pod's container is given: its environment (resolved), command, working directory, the files of each
     * ConfigMap and Secret volume by mount path, its emptyDirs' mount paths, and its user and group.
     */
    record PodSpec(Map<String, String> env, List<String> command, String workingDir,
            Map<String, Map<String, String>> mounts, List<String> emptyDirs, long uid, long gid) {
    }

    /** A rendered kustomize output: its resources, and its ConfigMaps' and Secrets' data by name. */
    record Rendered(List<JsonNode> resources, Map<String, Map<String, String>> configMaps,
            Map<String, Map<String, String>> secrets, Set<String> services) {

        static Rendered of(String yaml) throws IOException {
            Rendered rendered = new Rendered(new ArrayList<>(), new LinkedHashMap<>(), new LinkedHashMap<>(),
                    new LinkedHashSet<>());
            for (JsonNode resource : YAML.readValues(YAML.createParser(yaml), JsonNode.class).readAll()) {
                rendered.resources().add(resource);
                String name = resource.path("metadata").path("name").asText();
                switch (resource.path("kind").asText()) {
                    case "ConfigMap" -> rendered.configMaps().put(name, strings(resource.path("data")));
                    case "Secret" -> {
                        Map<String, String> data = new LinkedHashMap<>();
                        strings(resource.path("data")).forEach((key, base64) -> data.put(key,
                                new String(Base64.getMimeDecoder().decode(base64), StandardCharsets.UTF_8)));
                        data.putAll(strings(resource.path("stringData")));
                        rendered.secrets().put(name, data);
                    }
                    case "Service" -> rendered.services().add(name);
                    default -> { }
                }
            }
            return rendered;
        }

        JsonNode resource(String kind, String name) {
            return resources.stream().filter(r -> r.path("kind").asText().equals(kind)
                    && r.path("metadata").path("name").asText().equals(name)).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in the output"));
        }

        JsonNode container(String kind, String name) {
            return resource(kind, name).path("spec").path("template").path("spec").path("containers").get(0);
        }

        /** A container's env, each valueFrom resolved: a Secret or ConfigMap (or key) that is not there fails. */
        Map<String, String> env(JsonNode container, String where) {
            Map<String, String> env = new LinkedHashMap<>();
            for (JsonNode variable : container.path("env")) {
                String name = variable.path("name").asText();
                JsonNode from = variable.path("valueFrom");
                if (from.has("secretKeyRef")) {
                    env.put(name, lookUp(secrets, "Secret", from.path("secretKeyRef"), where + " " + name));
                } else if (from.has("configMapKeyRef")) {
                    env.put(name, lookUp(configMaps, "ConfigMap", from.path("configMapKeyRef"), where + " " + name));
                } else {
                    assertTrue(from.isMissingNode(), where + " " + name + ": a valueFrom this test cannot resolve");
                    env.put(name, variable.path("value").asText());
                }
            }
            return env;
        }

        private static String lookUp(Map<String, Map<String, String>> pool, String kind, JsonNode reference,
                String where) {
            String name = reference.path("name").asText();
            Map<String, String> data = pool.get(name);
            if (data == null) {
                throw new AssertionError(where + " names " + kind + " " + name + ", which the output does not define ("
                        + pool.keySet() + ")");
            }
            String value = data.get(reference.path("key").asText());
            if (value == null) {
                throw new AssertionError(where + ": " + kind + " " + name + " has no key " + reference.path("key"));
            }
            return value;
        }

        /** A volume's files: a ConfigMap's or Secret's keys (or its items, at their paths); none for an optional one. */
        private Map<String, String> files(String kind, String name, JsonNode items, boolean optional, String where) {
            Map<String, String> data = (kind.equals("Secret") ? secrets : configMaps).get(name);
            if (data == null) {
                if (optional) {
                    return Map.of();
                }
                throw new AssertionError(where + " mounts " + kind + " " + name + ", which the output does not define ("
                        + (kind.equals("Secret") ? secrets : configMaps).keySet() + ")");
            }
            if (items == null || items.isEmpty()) {
                return data;
            }
            Map<String, String> files = new LinkedHashMap<>();
            for (JsonNode item : items) {
                String content = data.get(item.path("key").asText());
                assertTrue(content != null, where + ": " + kind + " " + name + " has no key " + item.path("key"));
                files.put(item.path("path").asText(), content);
            }
            return files;
        }

        /** The service's pod: its Deployment's, or its Integration's as Camel K's operator makes it. */
        PodSpec pod(String output) throws IOException {
            Image image = Image.read(Path.of("Containerfile"));
            Map<String, String> env = new LinkedHashMap<>(image.env());
            Map<String, Map<String, String>> mounts = new LinkedHashMap<>();
            List<String> emptyDirs = new ArrayList<>();
            JsonNode deployment = resources.stream().filter(r -> r.path("kind").asText().equals("Deployment")
                    && r.path("metadata").path("name").asText().equals("docs-assistant")).findFirst().orElse(null);
            if (deployment != null) {
                JsonNode pod = deployment.path("spec").path("template").path("spec");
                JsonNode container = pod.path("containers").get(0);
                env.putAll(env(container, output));
                Map<String, JsonNode> volumes = new LinkedHashMap<>();
                pod.path("volumes").forEach(v -> volumes.put(v.path("name").asText(), v));
                for (JsonNode mount : container.path("volumeMounts")) {
                    JsonNode volume = volumes.get(mount.path("name").asText());
                    String path = mount.path("mountPath").asText();
                    if (volume.has("configMap")) {
                        JsonNode map = volume.path("configMap");
                        mounts.put(path, files("ConfigMap", map.path("name").asText(), map.path("items"),
                                map.path("optional").asBoolean(), output));
                    } else if (volume.has("secret")) {
                        JsonNode secret = volume.path("secret");
                        mounts.put(path, files("Secret", secret.path("secretName").asText(), secret.path("items"),
                                secret.path("optional").asBoolean(), output));
                    } else {
                        assertTrue(volume.has("emptyDir"), output + ": a volume this test cannot make: " + volume);
                        emptyDirs.add(path);
                    }
                }
                assertTrue(container.path("securityContext").path("readOnlyRootFilesystem").asBoolean(),
                        output + ": a read-only root file system");
                List<String> command = new ArrayList<>();
                container.path("command").forEach(c -> command.add(c.asText()));
                container.path("args").forEach(c -> command.add(c.asText()));
                JsonNode user = pod.path("securityContext");
                return new PodSpec(env, command.isEmpty() ? image.entrypoint() : command, image.workingDir(), mounts,
                        emptyDirs, user.path("runAsUser").asLong(image.uid()), user.path("fsGroup").asLong(image.uid()));
            }
            JsonNode integration = resource("Integration", "docs-assistant");
            JsonNode traits = integration.path("spec").path("traits");
            for (JsonNode variable : traits.path("environment").path("vars")) {
                String[] pair = variable.asText().split("=", 2);
                env.put(pair[0], pair[1]);
            }
            env.putAll(env(integration.path("spec").path("template").path("spec").path("containers").get(0), output));
            for (JsonNode resource : traits.path("mount").path("resources")) {
                Matcher mount = Pattern.compile("(configmap|secret):([a-z0-9.-]+)@(.+)").matcher(resource.asText());
                assertTrue(mount.matches(), output + ": a mount this test cannot make: " + resource);
                mounts.put(mount.group(3), files(mount.group(1).equals("secret") ? "Secret" : "ConfigMap",
                        mount.group(2), null, false, output));
            }
            traits.path("mount").path("emptyDirs").forEach(d -> emptyDirs.add(d.asText().split(":", 2)[1]));
            // The jvm trait: java <options> -jar <jar>.
            List<String> command = new ArrayList<>(List.of("java"));
            traits.path("jvm").path("options").forEach(o -> command.add(o.asText()));
            command.addAll(List.of("-jar", traits.path("jvm").path("jar").asText()));
            long uid = traits.path("container").path("runAsUser").asLong(image.uid());
            return new PodSpec(env, command, image.workingDir(), mounts, emptyDirs, uid, uid);
        }

        private static Map<String, String> strings(JsonNode object) {
            Map<String, String> map = new LinkedHashMap<>();
            object.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
            return map;
        }
    }

    /** What the image gives every container: its ENTRYPOINT, ENV, WORKDIR and USER (the Containerfile's last stage). */
    record Image(List<String> entrypoint, Map<String, String> env, String workingDir, long uid) {

        static Image read(Path containerfile) throws IOException {
            String text = Files.readString(containerfile).replace("\\\n", " ");
            String last = text.substring(text.lastIndexOf("\nFROM "));
            List<String> entrypoint = new ArrayList<>();
            Matcher entry = Pattern.compile("\nENTRYPOINT (\\[.*])").matcher(last);
            assertTrue(entry.find(), "the image's ENTRYPOINT");
            JSON.readTree(entry.group(1)).forEach(a -> entrypoint.add(a.asText()));
            Map<String, String> env = new LinkedHashMap<>();
            Matcher envLine = Pattern.compile("\nENV ([^\n]*)").matcher(last);
            while (envLine.find()) {
                for (String pair : envLine.group(1).trim().split("\\s+")) {
                    String[] kv = pair.split("=", 2);
                    env.put(kv[0], kv[1]);
                }
            }
            Matcher workdir = Pattern.compile("\nWORKDIR (\\S+)").matcher(last);
            Matcher user = Pattern.compile("\nUSER (\\d+)").matcher(last);
            assertTrue(workdir.find() && user.find(), "the image's WORKDIR and USER");
            return new Image(entrypoint, env, workdir.group(1), Long.parseLong(user.group(1)));
        }
    }

    /**
     * The container, made with bubblewrap: the image's root (the host's system folders, read-only, with the folders
     * the image adds), the app under the jar's folder, each volume at its mount path, then the root made read-only.
     */
    static final class Sandbox {

        /** The host's folders that stand for the image's operating system and JVM; nothing else of the host is seen. */
        private static final List<String> SYSTEM = List.of("usr", "etc", "bin", "lib", "lib32", "lib64", "sbin");

        static Process start(PodSpec spec, Map<String, String> env, Path jdk, Path scratch, Path log)
                throws IOException {
            List<String> jvm = new ArrayList<>(spec.command());
            assertTrue(!jvm.isEmpty() && jvm.get(0).equals("java"), "the pod runs java: " + jvm);
            int jar = jvm.indexOf("-jar");
            assertTrue(jar > 0 && jar == jvm.size() - 2, "the pod runs a jar: " + jvm);
            Path app = Path.of(jvm.get(jar + 1)).getParent();
            List<String> binds = new ArrayList<>();
            List<String> classPath = new ArrayList<>();
            int n = 0;
            for (String entry : System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))
                    .split(File.pathSeparator)) {
                Path source = Path.of(entry).toAbsolutePath();
                if (source.endsWith(Path.of("target", "test-classes"))) {
                    continue; // the image holds the application's classes, not the tests'
                }
                Path target = Files.isDirectory(source) ? app.resolve("classes")
                        : app.resolve("lib").resolve(n++ + "-" + source.getFileName());
                binds.addAll(List.of("--ro-bind", source.toString(), target.toString()));
                classPath.add(target.toString());
            }
            jvm.set(0, jdk.toString());
            jvm.subList(jar, jvm.size()).clear();
            jvm.addAll(List.of("-cp", String.join(":", classPath), mainClass()));

            Set<Path> targets = new LinkedHashSet<>(List.of(Path.of(spec.workingDir()), Path.of("/tmp"), app.resolve("lib")));
            spec.mounts().keySet().forEach(m -> targets.add(Path.of(m)));
            spec.emptyDirs().forEach(d -> targets.add(Path.of(d)));
            List<String> command = new ArrayList<>(List.of("bwrap", "--die-with-parent", "--unshare-ipc"));
            boolean root = "root".equals(System.getProperty("user.name"));
            if (!root) {
                command.addAll(List.of("--unshare-user", "--uid", Long.toString(spec.uid()), "--gid",
                        Long.toString(spec.gid())));
            }
            for (String system : SYSTEM) {
                mirror(Path.of("/", system), targets, command);
            }
            command.addAll(List.of("--proc", "/proc", "--dev", "/dev"));
            targets.forEach(t -> command.addAll(List.of("--dir", t.toString())));
            for (String emptyDir : spec.emptyDirs()) {
                command.addAll(List.of("--perms", "0777", "--tmpfs", emptyDir)); // emptyDir's mode
            }
            int volume = 0;
            for (Map.Entry<String, Map<String, String>> mount : spec.mounts().entrySet()) {
                Path files = Files.createDirectories(scratch.resolve("volume-" + volume++));
                for (Map.Entry<String, String> file : mount.getValue().entrySet()) {
                    Path path = files.resolve(file.getKey());
                    Files.createDirectories(path.getParent());
                    Files.writeString(path, file.getValue());
                }
                readableByAll(files);
                command.addAll(List.of("--ro-bind", files.toString(), mount.getKey()));
            }
            command.addAll(binds);
            command.addAll(List.of("--remount-ro", "/", "--chdir", spec.workingDir(), "--"));
            if (root) { // the container's user, with no capabilities and no way to gain any
                command.addAll(List.of("setpriv", "--reuid=" + spec.uid(), "--regid=" + spec.gid(),
                        "--groups=" + spec.gid(), "--no-new-privs", "--"));
            }
            command.addAll(jvm);
            Files.write(Path.of(log + ".cmd"), command); // the sandbox, beside its log, for reading when a pod fails
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().clear();
            builder.environment().put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
            builder.environment().putAll(env);
            return builder.start();
        }

        /** The jar's Main-Class: the shade plugin writes pom.xml's main.class into its manifest. */
        private static String mainClass() throws IOException {
            Matcher main = Pattern.compile("<main\\.class>([^<]+)</main\\.class>").matcher(
                    Files.readString(Path.of("pom.xml")));
            assertTrue(main.find(), "pom.xml's main.class");
            return main.group(1);
        }

        /** A host folder as the image has it: bound read-only, or rebuilt where a mount point lies under it. */
        private static void mirror(Path host, Set<Path> targets, List<String> command) throws IOException {
            if (!Files.exists(host, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            if (Files.isSymbolicLink(host)) {
                command.addAll(List.of("--symlink", Files.readSymbolicLink(host).toString(), host.toString()));
            } else if (targets.stream().noneMatch(t -> t.startsWith(host))) {
                command.addAll(List.of("--ro-bind", host.toString(), host.toString()));
            } else if (!targets.contains(host)) {
                command.addAll(List.of("--dir", host.toString()));
                try (Stream<Path> children = Files.list(host)) {
                    for (Path child : children.sorted().toList()) {
                        mirror(child, targets, command);
                    }
                }
            }
        }

        /** As the kubelet writes a volume's files: folders 0755, files 0644 (its default mode). */
        private static void readableByAll(Path folder) throws IOException {
            try (Stream<Path> paths = Files.walk(folder)) {
                for (Path path : paths.toList()) {
                    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                            Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }

        static void delete(Path folder) throws IOException {
            try (Stream<Path> paths = Files.walk(folder)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

}
