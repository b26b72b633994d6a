package dev.docsassistant;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Camel K's configuration channels reach the service: the bundled settings read the folder where Camel K puts
 * {@code kamel run -p} and the camel trait's properties ({@code conf.d/user.properties}) and {@code mount.configs}
 * ({@code conf.d/_configmaps/<name>/<key>}, {@code conf.d/_secrets/<name>/<key>}), laid out here as the operator
 * does in a temporary folder standing in for {@code /etc/camel}.
 */
class CamelKConfigTest {

    private static final String CAMEL_K_ROOT = "/etc/camel";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void kamelRunPropertiesAndMountedConfigsApply(@TempDir Path etcCamel) throws Exception {
        String location = bundled("camel.main.cloud-properties-location");
        assertNotNull(location, "the bundled settings name a cloud properties location");
        assertTrue(location.contains(CAMEL_K_ROOT + "/conf.d"), location);

        Path confD = Files.createDirectories(etcCamel.resolve("conf.d"));
        // kamel run -p assistant.demo.key=… (and camel.properties): one properties file, mounted by subPath.
        Files.writeString(confD.resolve("user.properties"), "assistant.demo.key=mint_dsc_from_kamel_run_p\n");
        // mount.configs configmap:settings, whose key application.properties is a properties file.
        Path settings = Files.createDirectories(confD.resolve("_configmaps/settings"));
        Files.writeString(settings.resolve("application.properties"), "assistant.search.semantic=false\n");
        // mount.configs secret:model, one file per key: the file's name is the property.
        Path model = Files.createDirectories(confD.resolve("_secrets/model"));
        Files.writeString(model.resolve("assistant.model.api-key"), "sk-from-a-secret");

        try (ServiceInstance service = ServiceInstance.start(Map.of(
                "assistant.tenants-file", "",
                "assistant.auth.key-prefix", "mint_dsc_from_",
                "camel.main.cloud-properties-location", location.replace(CAMEL_K_ROOT, etcCamel.toString())), http)) {
            assertEquals("false", service.context().resolvePropertyPlaceholders("{{assistant.search.semantic}}"));
            assertEquals("sk-from-a-secret", service.context().resolvePropertyPlaceholders("{{assistant.model.api-key}}"));

            String question = """
                    {"fp":"t","messages":[{"id":"m1","role":"user","content":"How do I change the port?"}]}""";
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(service.uri("/v1/assistant/demo/message"))
                    .timeout(Duration.ofSeconds(20))
                    .header("Authorization", "Bearer mint_dsc_from_kamel_run_p")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(question)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), "the demo key set with kamel run -p is the one accepted: "
                    + answer.body());
        }
    }

    private static String bundled(String name) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        return properties.getProperty(name);
    }
}
