package dev.docsassistant;

import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-key quota (assistant.ratelimit.key-per-month, 2 here; globex's file says 1000) counts each key apart, and
 * with assistant.threads.require-key=true a continuation without its threadKey is refused.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-hardened.yaml",
        "assistant.search.semantic=false", "assistant.ratelimit.key-per-month=2",
        "assistant.threads.require-key=true"})
class KeyQuotaAndRequiredThreadKeyTest extends ServiceTest {

    @Test
    void eachKeyHasItsOwnMonthlyQuota() throws Exception {
        assertEquals(200, ask("acme", ACME_KEY, question("How do I run it?")).statusCode());
        HttpResponse<String> second = ask("acme", ACME_KEY, question("How do I run it?"));
        assertEquals(200, second.statusCode());
        assertEquals("0", second.headers().firstValue("X-RateLimit-Remaining").orElseThrow(), "the key's quota is the tightest");

        HttpResponse<String> refused = ask("acme", ACME_KEY, question("How do I run it?"));
        JsonNode problem = AssistantEndpointTest.assertProblem(refused, 429, "rate_limited");
        assertTrue(problem.get("detail").asText().contains("key"), problem.toString());
        long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter >= 1 && retryAfter <= 30L * 86_400, "Retry-After " + retryAfter);

        assertEquals(200, ask("acme", "mint_dsc_acme_spare", question("How do I run it?")).statusCode(),
                "the organization's other key has its own quota");
        assertEquals(200, ask("globex", GLOBEX_KEY, question("How do I run it?")).statusCode());
        assertEquals(200, ask("globex", GLOBEX_KEY, question("How do I run it?")).statusCode());
        assertEquals(200, ask("globex", GLOBEX_KEY, question("How do I run it?")).statusCode(),
                "globex's monthlyRequestsPerKey (1000) wins over the default");
    }

    @Test
    void anOperatorMayRequireTheThreadKey() throws Exception {
        HttpResponse<String> first = ask("globex", GLOBEX_KEY, question("How do I run it?"));
        String threadId = first.headers().firstValue("X-Thread-Id").orElseThrow();
        String threadKey = first.headers().firstValue("X-Thread-Key").orElseThrow();

        AssistantEndpointTest.assertProblem(ask("globex", GLOBEX_KEY,
                conversation(threadId, null, "How do I run it?", "And the port?")), 404, "thread_not_found");
        HttpResponse<String> keyed = ask("globex", GLOBEX_KEY,
                conversation(threadId, threadKey, "How do I run it?", "And the port?"));
        assertEquals(200, keyed.statusCode(), keyed.body());
        assertEquals(threadId, keyed.headers().firstValue("X-Thread-Id").orElseThrow());
    }
}
