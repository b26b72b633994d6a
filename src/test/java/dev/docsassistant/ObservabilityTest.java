package dev.docsassistant;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.docsassistant.observe.AssistantMetrics;
import org.apache.camel.BindToRegistry;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What Kubernetes and Prometheus see: liveness and readiness (every readiness check joins, such as a store's), and
 * the metrics after some traffic.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.ratelimit.ip-per-day=1000"})
class ObservabilityTest extends ServiceTest {

    /** Stands in for a store's health check (the Redis store registers one the same way: a HealthCheck bean). */
    @BindToRegistry("storeHealthCheck")
    private final SwitchableCheck store = new SwitchableCheck();

    @Test
    void readyOnlyWhileEveryReadinessCheckIsUpAndLiveRegardless() throws Exception {
        assertEquals(200, get("/observe/health/live").statusCode());
        assertEquals(200, get("/observe/health/ready").statusCode());

        store.up = false;
        try {
            HttpResponse<String> ready = get("/observe/health/ready");
            assertEquals(503, ready.statusCode(), ready.body());
            assertTrue(ready.body().contains("test-store"), ready.body());
            assertEquals(200, get("/observe/health/live").statusCode(), "an unreachable store is no reason to restart");
        } finally {
            store.up = true;
        }
        assertEquals(200, get("/observe/health/ready").statusCode());
    }

    @Test
    void metricsAfterTraffic() throws Exception {
        for (int i = 0; i < 4; i++) { // globex may ask 3 times an hour: the 4th is refused
            ask("globex", GLOBEX_KEY, question("How do I run it?"));
        }
        assertEquals(401, ask("acme", "mint_dsc_wrong", question("How do I run it?")).statusCode());
        AssistantMetrics metrics = context.getRegistry().lookupByNameAndType("assistantMetrics", AssistantMetrics.class);
        metrics.upstreamError("openai", "http_503");
        metrics.upstreamRetry("openai");
        metrics.circuitState("openai", AssistantMetrics.CircuitState.OPEN);

        String[] expectations = {
            "assistant_requests_total{domain=\"globex\",route=\"assistant-v1-message\",status=\"200\"} 3.0",
            "assistant_requests_total{domain=\"globex\",route=\"assistant-v1-message\",status=\"429\"} 1.0",
            "assistant_requests_total{domain=\"none\",route=\"assistant-v1-message\",status=\"401\"} 1.0",
            "assistant_ratelimit_rejections_total{domain=\"globex\"} 1.0",
            "assistant_stream_ttfb_seconds_count 3",
            "assistant_stream_ttfb_seconds_bucket{le=\"10.0\"} 3",
            "assistant_stream_duration_seconds_count{outcome=\"complete\"} 3",
            // the extractive model bills nothing: its estimate is reported in the stream, not counted as spent
            "assistant_model_tokens_total{domain=\"globex\",kind=\"prompt\",organization=\"globex\"} 0.0",
            "assistant_model_tokens_total{domain=\"globex\",kind=\"completion\",organization=\"globex\"} 0.0",
            // the same question three times is searched once: the search cache answers the other two
            "assistant_search_latency_seconds_count{domain=\"globex\"} 1\n",
            "assistant_streams_open 0.0",
            "assistant_index_pages{domain=\"acme\"}",
            "assistant_index_sections{domain=\"acme-intl\"}",
            "assistant_upstream_errors_total{kind=\"http_503\",provider=\"openai\"} 1.0",
            "assistant_upstream_retries_total{provider=\"openai\"} 1.0",
            "assistant_upstream_circuit_state{provider=\"openai\"} 2.0",
            "jvm_memory_used_bytes",
            "camel_routes_running_routes ", // camel-micrometer's route notifier, which reads no exchange events
        };
        // a request is counted once its answer is sent, so the last one's count may trail its response
        long deadline = System.nanoTime() + 10_000_000_000L;
        String text;
        do {
            HttpResponse<String> scrape = get("/observe/metrics");
            assertEquals(200, scrape.statusCode());
            text = scrape.body();
        } while (!Arrays.stream(expectations).allMatch(text::contains) && System.nanoTime() < deadline
                && sleep(20));
        for (String expected : expectations) {
            assertTrue(text.contains(expected), "missing " + expected + " in\n" + grep(text, "assistant_"));
        }
        assertTrue(!text.contains("assistant_index_pages{domain=\"acme\"} 0.0"), "the index is loaded");
        assertFalse(context.getCamelContextExtension().isEventNotificationApplicable(),
                "no notifier asks for exchange events, so Camel makes none for a request");
    }

    @Test
    void healthAndMetricsAreOnTheManagementPortOnly() throws Exception {
        for (String path : List.of("/observe/metrics", "/observe/health", "/observe/health/ready",
                "/observe/health/live")) {
            HttpResponse<String> onPublicPort = send(HttpRequest.newBuilder(uri(path)).GET());
            assertEquals(404, onPublicPort.statusCode(), path + ": " + onPublicPort.body());
            assertTrue(!onPublicPort.body().contains("assistant_") && !onPublicPort.body().contains("UP"),
                    onPublicPort.body());
            assertEquals(200, get(path).statusCode(), path + " on the management port");
        }
    }

    /** On the management port. */
    private HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(managementUri(path)).GET());
    }

    private static String grep(String text, String prefix) {
        return String.join("\n", text.lines().filter(line -> line.startsWith(prefix)).toList());
    }

    static final class SwitchableCheck extends AbstractHealthCheck {
        volatile boolean up = true;

        SwitchableCheck() {
            super("assistant", "test-store");
        }

        @Override
        public boolean isLiveness() {
            return false;
        }

        @Override
        protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
            if (up) {
                builder.up();
            } else {
                builder.down();
            }
        }
    }

    private static boolean sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return true;
    }
}
