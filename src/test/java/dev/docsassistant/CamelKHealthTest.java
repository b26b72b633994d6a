package dev.docsassistant;

import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.apache.camel.main.MainConfigurationProperties;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.apache.camel.test.main.junit5.Configure;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The readiness probe as Camel K's operator reads it, with the Integration's health settings (k8s/camel-k/config.yaml):
 * for an unready pod the operator calls the probe itself and marks the Integration Error when the 503's body lists a
 * check that is not UP (pkg/controller/integration/monitor.go, probeReadiness). A pod that cannot serve a domain yet
 * (here: its only domain) is unready, and its answer lists no check; asked for them, it still names the one that is
 * down.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-none-serves.yaml",
        "assistant.search.semantic=false", ServiceTest.UNLIMITED_ADDRESS_RATE})
class CamelKHealthTest extends ServiceTest {

    @Override
    protected boolean awaitsReadiness() {
        return false;
    }

    @Configure
    void integrationHealthSettings(MainConfigurationProperties configuration) throws IOException {
        String level = camelKSettings().getProperty("camel.health.exposure-level");
        if (level != null) {
            configuration.health().setExposureLevel(level);
        }
    }

    @Test
    void anUnreadyPodIsNoIntegrationError() throws Exception {
        HttpResponse<String> ready = send(HttpRequest.newBuilder(managementUri("/observe/health/ready")).GET());
        for (int i = 0; i < 600 && ready.statusCode() != 503; i++) { // a domain that cannot be indexed keeps it DOWN
            Thread.sleep(50);
            ready = send(HttpRequest.newBuilder(managementUri("/observe/health/ready")).GET());
        }
        assertEquals(503, ready.statusCode(), "unready: " + ready.body());
        JsonNode body = JSON.readTree(ready.body());
        assertEquals("DOWN", body.path("status").asText(), body.toString());
        for (JsonNode check : body.path("checks")) {
            assertEquals("UP", check.path("status").asText(), "the operator would set phase Error: " + body);
        }

        HttpResponse<String> detail = send(HttpRequest.newBuilder(
                managementUri("/observe/health/ready?exposureLevel=default")).GET());
        assertTrue(detail.body().contains("\"docs-indexes\""), "asked, it says what is down: " + detail.body());
    }

    /** The application.properties of the Integration's docs-assistant-config ConfigMap. */
    private static Properties camelKSettings() throws IOException {
        Iterator<JsonNode> documents = new YAMLMapper().readerFor(JsonNode.class)
                .readValues(Path.of("k8s/camel-k/config.yaml").toFile());
        Properties settings = new Properties();
        while (documents.hasNext()) {
            JsonNode document = documents.next();
            if (document.path("metadata").path("name").asText().equals("docs-assistant-config")) {
                settings.load(new StringReader(document.path("data").path("application.properties").asText()));
            }
        }
        assertFalse(settings.isEmpty(), "k8s/camel-k/config.yaml has the settings");
        return settings;
    }
}
