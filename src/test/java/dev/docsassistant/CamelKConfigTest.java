package dev.docsassistant;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Camel K's configuration channels reach the service: the bundled settings read the folder where Camel K puts
 * {@code kamel run -p} and the camel trait's properties ({@code conf.d/user.properties}) and {@code mount.configs}
 * ({@code conf.d/_configmaps/<name>/<key>}, {@code conf.d/_secrets/<name>/<key>}). Laid out as the operator does in a
 * temporary folder standing in for {@code /etc/camel}, read by the service in a process of its own, started as the
 * container starts it (an in-process Main's override properties would change how camel-main loads them).
 */
class CamelKConfigTest {

    private static final String CAMEL_K_ROOT = "/etc/camel";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private Process service;

    @Test
    void kamelRunPropertiesAndMountedConfigsApply(@TempDir Path etcCamel) throws Exception {
        String location = bundled("camel.main.cloud-properties-location");
        assertNotNull(location, "the bundled settings name the folders they are read over with");
        assertTrue(location.contains(CAMEL_K_ROOT + "/conf.d"), location);

        Path confD = Files.createDirectories(etcCamel.resolve("conf.d"));
        // kamel run -p assistant.auth.key-prefix=camelk_ (or the camel trait's properties): one properties file.
        Files.writeString(confD.resolve("user.properties"), "assistant.auth.key-prefix=camelk_\n");
        // mount.configs configmap:settings, whose key application.properties is a properties file.
        Path settings = Files.createDirectories(confD.resolve("_configmaps/settings"));
        Files.writeString(settings.resolve("application.properties"), """
                assistant.search.semantic = false
                assistant.ratelimit.ip-per-minute = 1
                assistant.ratelimit.ip-burst = 1
                """);
        // mount.configs secret:demo-key: one file per key, the file's name is the property.
        Path secret = Files.createDirectories(confD.resolve("_secrets/demo-key"));
        Files.writeString(secret.resolve("assistant.demo.key"), "camelk_from_a_secret");

        int port;
        int managementPort;
        try (ServerSocket socket = new ServerSocket(0); ServerSocket management = new ServerSocket(0)) {
            port = socket.getLocalPort();
            managementPort = management.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "org.apache.camel.main.Main")
                .redirectErrorStream(true).redirectOutput(Path.of("target/camel-k-config-test.log").toFile());
        builder.environment().putAll(Map.of(
                "CAMEL_SERVER_PORT", Integer.toString(port),
                "CAMEL_MANAGEMENT_PORT", Integer.toString(managementPort),
                "ASSISTANT_TENANTS_FILE", "",
                "CAMEL_MAIN_CLOUD_PROPERTIES_LOCATION", location.replace(CAMEL_K_ROOT, etcCamel.toString())));
        service = builder.start();
        awaitReady(URI.create("http://127.0.0.1:" + managementPort));

        URI message = URI.create("http://127.0.0.1:" + port + "/v1/assistant/demo/message");
        assertEquals(200, ask(message).statusCode(), "the demo key from the Secret, with the prefix from -p");
        assertEquals(429, ask(message).statusCode(), "the ConfigMap's per-address limit: one a minute");
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (service != null && service.isAlive()) {
            service.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private HttpResponse<String> ask(URI message) throws IOException, InterruptedException {
        String question = """
                {"fp":"t","messages":[{"id":"m1","role":"user","content":"How do I change the port?",
                "parts":[{"type":"text","text":"How do I change the port?"}]}]}""";
        return http.send(HttpRequest.newBuilder(message).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer camelk_from_a_secret").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(question)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private void awaitReady(URI management) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline && service.isAlive()) {
            try {
                if (http.send(HttpRequest.newBuilder(management.resolve("/observe/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) { // not listening yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the service did not become ready (target/camel-k-config-test.log)");
    }

    private static String bundled(String name) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        return properties.getProperty(name);
    }
}
