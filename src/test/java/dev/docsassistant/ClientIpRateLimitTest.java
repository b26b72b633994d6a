package dev.docsassistant;

import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-IP daily quota spans organizations, and a client over it does not use up its organization's. */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.ratelimit.org-per-hour=1000", "assistant.ratelimit.ip-per-day=4"})
class ClientIpRateLimitTest extends ServiceTest {

    @Test
    void letsExactlyTheDailyLimitThroughFromOneAddress() throws Exception {
        assertEquals(200, ask("acme", ACME_KEY, question("How do I run it?")).statusCode());
        assertEquals(200, ask("globex", GLOBEX_KEY, question("How do I run it?")).statusCode());
        assertEquals(200, ask("acme", ACME_KEY, question("How do I run it?")).statusCode());
        HttpResponse<String> last = ask("acme", ACME_KEY, question("How do I run it?"));
        assertEquals(200, last.statusCode());
        assertEquals("0", last.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
        assertEquals("ip-day", last.headers().firstValue("X-RateLimit-Scope").orElseThrow(), "the tightest quota");

        HttpResponse<String> refused = ask("globex", GLOBEX_KEY, question("How do I run it?"));
        JsonNode problem = AssistantEndpointTest.assertProblem(refused, 429, "rate_limited");
        assertTrue(problem.get("detail").asText().contains("today"), problem.toString());
        assertEquals("4", refused.headers().firstValue("X-RateLimit-Limit").orElseThrow());
        assertEquals("ip-day", refused.headers().firstValue("X-RateLimit-Scope").orElseThrow());
        long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter >= 1 && retryAfter <= 86_400, "Retry-After " + retryAfter);

        // globex (limit 3/hour) was used once; refusals by the IP quota must not have counted against it
        assertEquals(429, ask("globex", GLOBEX_KEY, question("How do I run it?")).statusCode());
        dev.docsassistant.ratelimit.RateLimiter limiter = context.getRegistry()
                .lookupByNameAndType("rateLimiter", dev.docsassistant.ratelimit.RateLimiter.class);
        assertEquals(1, limiter.acquire("org:globex", 3, java.time.Duration.ofHours(1)).remaining(),
                "globex has counted 1 earlier request plus this probe");
    }
}
