package dev.docsassistant;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import dev.docsassistant.ratelimit.RateLimiter;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Real preflights and cross-origin requests against per-domain allowedOrigins (tenants-hardened.yaml). */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-hardened.yaml",
        "assistant.search.semantic=false", "assistant.cors.max-age=900"})
class CorsOriginsTest extends ServiceTest {

    private static final String EXPOSED = "Access-Control-Expose-Headers";

    private HttpResponse<String> preflight(String path, String origin) throws Exception {
        return send(HttpRequest.newBuilder(uri(path))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", origin)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization, content-type"));
    }

    @ParameterizedTest(name = "{0} may call {1}")
    @CsvSource({
            "https://docs.acme.example, /v1/assistant/acme/message",
            "https://eu.acme.example, /v1/assistant/acme/message",
            "https://a.b.acme.example, /v1/search/acme",
            "http://localhost:3000, /v1/page/acme",
            "https://anyone.example, /v1/assistant/globex/message"})
    void answersAnAllowedOriginsPreflight(String origin, String path) throws Exception {
        HttpResponse<String> preflight = preflight(path, origin);
        assertEquals(204, preflight.statusCode(), preflight.body());
        HttpHeadersAssert headers = new HttpHeadersAssert(preflight);
        headers.is("Access-Control-Allow-Origin", origin);
        headers.is("Access-Control-Allow-Methods", "OPTIONS, POST");
        headers.contains("Access-Control-Allow-Headers", "Authorization");
        headers.contains("Access-Control-Allow-Headers", "Content-Type");
        headers.is("Access-Control-Max-Age", "900");
        headers.contains("Vary", "Origin");
        headers.present("X-Request-Id");
    }

    @ParameterizedTest(name = "{0} may not call acme")
    @CsvSource({"https://evil.example", "https://acme.example", "https://evilacme.example",
            "https://docs.acme.example.evil.example", "http://docs.acme.example", "https://docs.acme.example:444",
            "null"})
    void refusesAnotherOriginsPreflightWithoutCorsHeaders(String origin) throws Exception {
        HttpResponse<String> preflight = preflight("/v1/assistant/acme/message", origin);
        AssistantEndpointTest.assertProblem(preflight, 403, "origin_not_allowed");
        new HttpHeadersAssert(preflight).absent("Access-Control-Allow-Origin");
    }

    @Test
    void exposesTheHeadersTheWidgetReads() throws Exception {
        HttpResponse<String> answer = send(post("/v1/assistant/acme/message", ACME_KEY, question("How do I run it?"))
                .header("Origin", "https://docs.acme.example"));
        assertEquals(200, answer.statusCode(), answer.body());
        HttpHeadersAssert headers = new HttpHeadersAssert(answer);
        headers.is("Access-Control-Allow-Origin", "https://docs.acme.example");
        for (String header : List.of("X-Thread-Id", "X-Thread-Key", "Retry-After", "X-RateLimit-Limit",
                "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id")) {
            headers.contains(EXPOSED, header);
        }
        // An error the page may read carries them too (useChat shows its body).
        HttpResponse<String> refused = send(post("/v1/assistant/acme/message", null, question("Hi?"))
                .header("Origin", "https://eu.acme.example"));
        AssistantEndpointTest.assertProblem(refused, 401, "unauthorized");
        new HttpHeadersAssert(refused).is("Access-Control-Allow-Origin", "https://eu.acme.example");
    }

    @Test
    void refusesADisallowedOriginBeforeAnyWork() throws Exception {
        RateLimiter limiter = context.getRegistry().lookupByNameAndType("rateLimiter", RateLimiter.class);
        long before = limiter.acquire("org:acme", 1_000_000, Duration.ofHours(1)).remaining();

        HttpResponse<String> refused = send(post("/v1/assistant/acme/message", ACME_KEY, question("How do I run it?"))
                .header("Origin", "https://evil.example"));
        AssistantEndpointTest.assertProblem(refused, 403, "origin_not_allowed");
        HttpHeadersAssert headers = new HttpHeadersAssert(refused);
        headers.absent("Access-Control-Allow-Origin");
        headers.absent("X-Thread-Id");
        headers.absent("X-RateLimit-Remaining");

        long after = limiter.acquire("org:acme", 1_000_000, Duration.ofHours(1)).remaining();
        assertEquals(before - 1, after, "only the probe counted: the refused request reached no quota");
        assertFalse(refused.body().contains(ACME_KEY));
    }

    @Test
    void aRequestWithoutOriginIsNotACorsRequest() throws Exception {
        HttpResponse<String> answer = ask("acme", ACME_KEY, question("How do I run it?"));
        assertEquals(200, answer.statusCode(), answer.body());
        new HttpHeadersAssert(answer).absent("Access-Control-Allow-Origin");
    }
}
