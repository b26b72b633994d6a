package dev.docsassistant;

import java.net.ServerSocket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One tenant's broken docs stay its own: with a good domain and one whose site cannot be reached, the instance is
 * ready and the good domain answers, the broken one answers 503 {@code docs_unavailable} naming itself, health names
 * it and its error, its failed sync is retried well before its refresh, and the tenants file fixed while the service
 * runs makes it serve within seconds.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/health/tenants.yaml",
        "assistant.search.semantic=false", "assistant.sources.allow-private-addresses=true",
        "assistant.sources.allow-http=true",
        "assistant.tenants.reload-seconds=1", ServiceTest.UNLIMITED_ADDRESS_RATE})
class HealthTest extends ServiceTest {

    private static final Path FILE = Path.of("target/health/tenants.yaml");

    static {
        TenantsReloadTest.write(FILE, tenants("{site: \"http://127.0.0.1:" + closedPort() + "/\"}"));
    }

    private static String tenants(String brokenDocs) {
        return """
                organizations:
                  - {id: acme, apiKeys: [%s], domains: [{id: acme, docs: "classpath:demo-docs"}, {id: broken, docs: %s}]}
                """.formatted(ACME_KEY, brokenDocs);
    }

    /** A loopback port nothing listens on. */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    protected boolean awaitsReadiness() {
        return false;
    }

    @Test
    void aBrokenDomainIsItsOwnAndAFixedTenantsFileServesIt() throws Exception {
        TenantsReloadTest.eventually("ready with one domain broken",
                () -> send(HttpRequest.newBuilder(managementUri("/observe/health/ready")).GET()).statusCode() == 200);
        assertEquals(200, ask("acme", ACME_KEY, question("How do I run it?")).statusCode(), "the good domain answers");
        JsonNode problem = AssistantEndpointTest.assertProblem(ask("broken", ACME_KEY, question("How do I run it?")),
                503, "docs_unavailable");
        assertTrue(problem.get("detail").asText().contains("'broken'"), problem.toString());
        assertTrue(problem.get("detail").asText().contains("could not be reached"), problem.toString());
        assertFalse(problem.toString().contains("127.0.0.1"), "the operator's details stay the operator's: " + problem);

        HttpResponse<String> health = send(HttpRequest.newBuilder(
                managementUri("/observe/health?exposureLevel=full&data=true")).GET());
        assertEquals(200, health.statusCode(), health.body());
        JsonNode details = check(JSON.readTree(health.body()), "docs-indexes").path("data");
        assertEquals("FAILED", details.get("domain.broken").asText(), details.toString());
        assertEquals("READY", details.get("domain.acme").asText(), details.toString());
        assertFalse(details.path("domain.broken.error").asText().isBlank(), details.toString());
        assertEquals(200, send(HttpRequest.newBuilder(managementUri("/observe/health/live")).GET()).statusCode());

        assertTrue(metrics().contains("assistant_docs_available{domain=\"broken\"} 0.0"), "per domain, from the start");
        TenantsReloadTest.eventually("the failed sync retried before its refresh (300 s)",
                () -> metric("assistant_docs_sync_failures_total{domain=\"broken\"}") >= 2);

        TenantsReloadTest.write(FILE, tenants("\"classpath:demo-docs\""));
        long fixed = System.nanoTime();
        TenantsReloadTest.eventually("the fixed domain serves",
                () -> ask("broken", ACME_KEY, question("How do I run it?")).statusCode() == 200);
        assertTrue(System.nanoTime() - fixed < 10_000_000_000L, "within seconds of the edit, not at its refresh");
        assertEquals(1.0, metric("assistant_docs_available{domain=\"broken\"}"));
    }

    static JsonNode check(JsonNode health, String name) {
        for (JsonNode check : health.get("checks")) {
            if (check.get("name").asText().equals(name)) {
                return check;
            }
        }
        throw new AssertionError("no check " + name + " in " + health);
    }

    private String metrics() throws Exception {
        return send(HttpRequest.newBuilder(managementUri("/observe/metrics")).GET()).body();
    }

    private double metric(String series) throws Exception {
        return metrics().lines().filter(line -> line.startsWith(series + " ")).findFirst()
                .map(line -> Double.parseDouble(line.substring(series.length() + 1))).orElse(-1.0);
    }
}
