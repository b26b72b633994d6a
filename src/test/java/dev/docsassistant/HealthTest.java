package dev.docsassistant;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Health is UP only when every domain's index is loaded; a domain that cannot be indexed keeps it DOWN, and the
 * service not ready (but live).
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-broken.yaml",
        ServiceTest.UNLIMITED_ADDRESS_RATE})
class HealthTest extends ServiceTest {

    @Override
    protected boolean awaitsReadiness() {
        return false;
    }

    @Test
    void staysDownWhileADomainHasNoIndex() throws Exception {
        int status = 0;
        for (int i = 0; i < 600 && status != 200; i++) { // until the good domain is indexed
            status = ask("acme", ACME_KEY, question("How do I run it?")).statusCode();
            Thread.sleep(status == 200 ? 0 : 50);
        }
        assertEquals(200, status, "the good domain answers");
        HttpResponse<String> missing = ask("missing", ACME_KEY, question("How do I run it?"));
        for (int i = 0; i < 600 && missing.body().contains("index_loading"); i++) { // domains index in any order
            Thread.sleep(50);
            missing = ask("missing", ACME_KEY, question("How do I run it?"));
        }
        AssistantEndpointTest.assertProblem(missing, 503, "index_failed");

        HttpResponse<String> health = send(HttpRequest.newBuilder(managementUri("/observe/health")).GET());
        assertEquals(503, health.statusCode(), health.body());
        JsonNode body = JSON.readTree(health.body());
        assertEquals("DOWN", body.get("status").asText(), body.toString());
        assertEquals("docs-indexes", body.get("checks").get(0).get("name").asText(), body.toString());
        HttpResponse<String> ready = send(HttpRequest.newBuilder(managementUri("/observe/health/ready")).GET());
        assertEquals(503, ready.statusCode(), "not ready while a domain has no index: " + ready.body());
        HttpResponse<String> live = send(HttpRequest.newBuilder(managementUri("/observe/health/live")).GET());
        assertEquals(200, live.statusCode(), "but alive: a restart would not help " + live.body());
    }
}
