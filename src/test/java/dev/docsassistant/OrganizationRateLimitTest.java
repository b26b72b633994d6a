package dev.docsassistant;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Organization quotas: exactly N requests pass a limit of N, one at a time or all at once. */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.ratelimit.org-per-hour=12", "assistant.ratelimit.ip-per-day=1000"})
class OrganizationRateLimitTest extends ServiceTest {

    @Test
    void letsExactlyTheHourlyLimitThroughThenSays429() throws Exception {
        // globex has its own rateLimitPerHour: 3 in the tenants file
        for (int i = 1; i <= 3; i++) {
            HttpResponse<String> allowed = ask("globex", GLOBEX_KEY, question("How do I run it?"));
            assertEquals(200, allowed.statusCode(), allowed.body());
            assertEquals("3", allowed.headers().firstValue("X-RateLimit-Limit").orElseThrow());
            assertEquals(String.valueOf(3 - i), allowed.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
            assertEquals("org", allowed.headers().firstValue("X-RateLimit-Scope").orElseThrow());
        }
        HttpResponse<String> refused = ask("globex", GLOBEX_KEY, question("How do I run it?"));
        JsonNode problem = AssistantEndpointTest.assertProblem(refused, 429, "rate_limited");
        assertTrue(problem.get("detail").asText().contains("organization"), problem.toString());
        long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
        long reset = Long.parseLong(refused.headers().firstValue("X-RateLimit-Reset").orElseThrow());
        long now = Instant.now().getEpochSecond();
        assertTrue(retryAfter >= 1 && retryAfter <= 3600, "Retry-After " + retryAfter);
        assertTrue(reset > now && reset <= now + 3600 && reset % 3600 == 0, "resets on the hour: " + reset);
        assertEquals("0", refused.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
        assertEquals("org", refused.headers().firstValue("X-RateLimit-Scope").orElseThrow());
    }

    @Test
    void concurrentRequestsNeverExceedTheLimit() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(16);
        try {
            List<Callable<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                calls.add(() -> ask("acme", ACME_KEY, question("How do I run it?")).statusCode());
            }
            int ok = 0;
            int limited = 0;
            for (Future<Integer> status : clients.invokeAll(calls)) {
                ok += status.get() == 200 ? 1 : 0;
                limited += status.get() == 429 ? 1 : 0;
            }
            assertEquals(12, ok, "exactly the organization's limit passes");
            assertEquals(28, limited);
        } finally {
            clients.shutdownNow();
        }
    }
}
