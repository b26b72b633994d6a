package dev.docsassistant;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The service as the jar starts it, in a JVM of its own: the jar's main class on this test's class path, its API and
 * management ports free ones, the JVM options, properties and environment a test gives; started once healthy, stopped
 * with SIGTERM as a pod is. {@link ServiceInstance} is one in this JVM.
 */
final class OwnJvmService implements AutoCloseable {

    /** The jar's main class (pom.xml). */
    static final String MAIN = "dev.docsassistant.web.Service";

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final int port;
    private final int managementPort;

    private OwnJvmService(Process process, int port, int managementPort) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
    }

    /**
     * A service for this JVM (its {@code java}) with these JVM options, its standard output to {@code out} and its
     * standard error to {@code err} (or, if null, into {@code out} too); {@link Launch#start} starts it.
     */
    static Launch launch(Path java, List<String> jvmOptions, Path out, Path err) throws IOException {
        return new Launch(java, jvmOptions, out, err);
    }

    /** What a test sets before the start: properties ({@code -D}) and environment. */
    static final class Launch {

        private final List<String> command = new ArrayList<>();
        private final ProcessBuilder builder = new ProcessBuilder();
        private final int port = freePort();
        private final int managementPort = freePort();
        private final Path output;

        private Launch(Path java, List<String> jvmOptions, Path out, Path err) throws IOException {
            output = out;
            builder.redirectOutput(out.toFile());
            if (err == null) {
                builder.redirectErrorStream(true);
            } else {
                builder.redirectError(err.toFile());
            }
            command.add(java.toString());
            command.addAll(jvmOptions);
            property("camel.server.port", Integer.toString(port));
            property("camel.management.port", Integer.toString(managementPort));
            builder.environment().remove("CAMEL_MANAGEMENT_PORT"); // the suite's random port, which would win over -D
        }

        Launch property(String name, String value) {
            command.add("-D" + name + "=" + value);
            return this;
        }

        Launch environment(String name, String value) {
            builder.environment().put(name, value);
            return this;
        }

        /** The JVM started, not waited for (a start meant to fail). */
        Process process() throws IOException {
            List<String> started = new ArrayList<>(command);
            started.addAll(List.of("-cp", System.getProperty("java.class.path"), MAIN));
            return builder.command(started).start();
        }

        /** Started and healthy within {@code seconds}; fails at once if the JVM exits meanwhile. */
        OwnJvmService start(int seconds) throws IOException, InterruptedException {
            OwnJvmService service = new OwnJvmService(process(), port, managementPort);
            try {
                awaitHealthy(HttpClient.newHttpClient(), managementPort, seconds, service.process);
            } catch (AssertionError notHealthy) {
                service.close();
                throw new AssertionError(notHealthy.getMessage() + "; see " + output, notHealthy);
            }
            return service;
        }
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** POSTs {@code body} (JSON) to {@code path} with this key. */
    HttpResponse<String> post(String path, String key, String body) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Triggers an update of the domain with this admin key and returns its final status (success or failure);
     * fails if the service exits meanwhile or the update runs past {@code within}.
     */
    JsonNode update(String domain, String adminKey, Duration within) throws IOException, InterruptedException {
        HttpResponse<String> accepted = CLIENT.send(HttpRequest.newBuilder(uri("/v1/project/update/" + domain))
                .timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + adminKey)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (accepted.statusCode() != 202) {
            throw new AssertionError("The update was not accepted: " + accepted.statusCode() + " " + accepted.body());
        }
        String id = JSON.readTree(accepted.body()).get("statusId").asText();
        long deadline = System.nanoTime() + within.toNanos();
        // doubling to 1 s: a slow sync's polls leave the address's burst (assistant.ratelimit.ip-burst) to the test
        long pause = 100;
        while (true) {
            if (!isAlive()) {
                throw new AssertionError("The service exited with " + process.exitValue());
            }
            JsonNode status = JSON.readTree(CLIENT.send(HttpRequest.newBuilder(uri("/v1/project/update-status/" + id))
                    .timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + adminKey).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            String state = status.path("status").asText();
            if (state.equals("success") || state.equals("failure")) {
                return status;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("The update did not end: " + status);
            }
            Thread.sleep(pause);
            pause = Math.min(2 * pause, 1_000);
        }
    }

    int managementPort() {
        return managementPort;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM, as a pod is stopped: the shutdown's lines are written too. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("The service did not stop within 60 s of SIGTERM");
        }
    }

    /**
     * Waits ({@code seconds} at most) until the health endpoint on this port answers 200; fails at once if
     * {@code service}, the process serving it, exits meanwhile.
     */
    static void awaitHealthy(HttpClient http, int port, int seconds, Process service) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!healthy(http, port)) {
            if (!service.isAlive()) {
                throw new AssertionError("The service exited with " + service.exitValue());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("The service did not become healthy within " + seconds + " s");
            }
            Thread.sleep(100);
        }
    }

    private static boolean healthy(HttpClient http, int port) throws InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/observe/health"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode() == 200;
        } catch (IOException notYet) {
            return false; // starting
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return free.getLocalPort();
        }
    }

    /** A JDK's {@code java} and its feature version (17, 25). */
    record Jdk(Path java, int feature) {
    }

    /** This JVM if its version matches, else an installed one beside it that does. */
    static Optional<Jdk> jdk(IntPredicate version) throws IOException {
        if (version.test(Runtime.version().feature())) {
            return Optional.of(new Jdk(Path.of(System.getProperty("java.home"), "bin", "java"),
                    Runtime.version().feature()));
        }
        try (Stream<Path> homes = Files.list(jvms())) {
            for (Path home : (Iterable<Path>) homes.sorted()::iterator) {
                Path release = home.resolve("release");
                if (Files.isExecutable(home.resolve("bin/java")) && Files.isRegularFile(release)) {
                    Matcher feature = Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(Files.readString(release));
                    if (feature.find() && version.test(Integer.parseInt(feature.group(1)))) {
                        return Optional.of(new Jdk(home.resolve("bin/java"), Integer.parseInt(feature.group(1))));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Where JDKs are installed: beside this one (/usr/lib/jvm on Debian). */
    static Path jvms() {
        return Path.of(System.getProperty("java.home")).getParent();
    }
}
