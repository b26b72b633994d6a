package dev.docsassistant;

import java.lang.reflect.Field;
import java.net.http.HttpResponse;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The caches a question passes through (search results, question vectors) keep it under a hash: no text a client
 * sends stays in a key, and the search cache's values are the hits, not the query.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.reload-seconds=0"})
class CacheKeysTest extends ServiceTest {

    @Test
    void noCacheKeepsAClientsTextInItsKeys() throws Exception {
        String marker = "quokkazebra" + System.nanoTime();
        ObjectNode body = (ObjectNode) JSON.readTree(question("How do I run the service " + marker + "?"));
        body.putArray("context").addObject().put("type", "code").put("value", "run --" + marker);
        HttpResponse<String> answer = ask("acme", ACME_KEY, body.toString());
        assertEquals(200, answer.statusCode(), answer.body());

        Field vectors = Class.forName("dev.docsassistant.search.SemanticIndex").getDeclaredField("QUESTIONS");
        vectors.setAccessible(true);
        Map<?, ?> questions = ((AsyncCache<?, ?>) vectors.get(null)).synchronous().asMap();
        assertFalse(questions.isEmpty(), "the question was embedded");
        assertFree(questions, marker);

        Cache<?, ?> results = context.getRegistry().lookupByNameAndType("search-results", Cache.class);
        assertFalse(results.asMap().isEmpty(), "the search was cached");
        assertFree(results.asMap(), marker);
    }

    private static void assertFree(Map<?, ?> cache, String marker) {
        cache.forEach((key, value) -> {
            assertFalse(key.toString().contains(marker), "a key holds the client's text: " + key);
            assertTrue(key.toString().matches("[0-9a-f]{64}"), "a key is a SHA-256: " + key);
            assertFalse(value.toString().contains(marker), "a value holds the client's text");
        });
    }
}
