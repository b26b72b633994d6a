package dev.docsassistant;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import dev.docsassistant.ratelimit.RateLimiter;
import org.apache.camel.BindToRegistry;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One client cannot take its organization's service from the others: an address's short-window rate is checked
 * before the organization's quota, and requests open at once are capped per address and per organization, the places
 * given back however a request ends. Clients are told apart by X-Forwarded-For from the trusted proxy (127.0.0.1).
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-fairness.yaml",
        "assistant.search.semantic=false", "assistant.model.provider=gated", "assistant.trusted-proxies=127.0.0.1",
        "assistant.ratelimit.ip-per-minute=60", "assistant.ratelimit.ip-burst=30",
        "assistant.ratelimit.ip-max-streams=2"})
class ClientFairnessTest extends ServiceTest {

    private static final int ORG_PER_HOUR = 600; // tenants-fairness.yaml, as are its 3 requests open at once

    @BindToRegistry("gatedModel")
    private final GatedModel model = new GatedModel();

    @BeforeEach
    void holdTheModel() {
        model.hold();
    }

    @Test
    void anAddressFloodingInvalidBodiesLeavesItsOrganizationServed() throws Exception {
        int invalid = 0;
        HttpResponse<String> limited = null;
        for (int i = 0; i < ORG_PER_HOUR; i++) {
            HttpResponse<String> response = send(from("203.0.113.66", "{}"));
            if (response.statusCode() == 400) {
                invalid++;
            } else if (limited == null) {
                limited = response;
            }
        }
        HttpResponse<String> other = send(from("203.0.113.77", question("How do I run it?")));
        assertEquals(200, other.statusCode(), "another reader of the organization: " + other.body());
        assertTrue(limited != null, "the flood was cut short");
        JsonNode problem = AssistantEndpointTest.assertProblem(limited, 429, "rate_limited");
        assertTrue(problem.get("detail").asText().contains("a minute"), problem.toString());
        HttpHeadersAssert headers = new HttpHeadersAssert(limited);
        headers.is("X-RateLimit-Scope", "ip-minute");
        headers.is("X-RateLimit-Limit", "30");
        headers.is("X-RateLimit-Remaining", "0");
        long retryAfter = Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter >= 1 && retryAfter <= 2, "a token comes every second: Retry-After " + retryAfter);

        RateLimiter limiter = context.getRegistry().lookupByNameAndType("rateLimiter", RateLimiter.class);
        long left = limiter.acquire("org:acme", ORG_PER_HOUR, Duration.ofHours(1)).remaining();
        assertEquals(ORG_PER_HOUR - invalid - 2, left, "only the flood's admitted requests, the other reader's and "
                + "this probe counted against the organization");
    }

    @Test
    void requestsOpenAtOnceAreCappedPerAddressAndPerOrganizationUntilTheyEnd() throws Exception {
        List<BufferedReader> open = new ArrayList<>();
        try {
            open.add(stream("198.51.100.1", Duration.ZERO));
            open.add(stream("198.51.100.1", Duration.ZERO));
            assertRefused(send(from("198.51.100.1", question("please wait"))), "ip-streams", "2");
            open.add(stream("198.51.100.2", Duration.ZERO));
            assertRefused(send(from("198.51.100.3", question("please wait"))), "org-streams", "3");

            open.remove(2).close(); // this client leaves: its place is given back once the server sees it
            open.add(stream("198.51.100.3", Duration.ofSeconds(10)));
            assertRefused(send(from("198.51.100.4", question("How do I run it?"))), "org-streams", "3");
        } finally {
            model.release();
        }
        assertAnsweredInFull(open);

        // Every answer that ended gave its places back (just after its client saw the end): the organization's three
        // are free again.
        model.hold();
        try {
            open.clear();
            open.add(stream("198.51.100.1", Duration.ofSeconds(10)));
            open.add(stream("198.51.100.1", Duration.ofSeconds(10)));
            open.add(stream("198.51.100.2", Duration.ofSeconds(10)));
        } finally {
            model.release();
            for (BufferedReader stream : open) {
                stream.close();
            }
        }
    }

    static void assertRefused(HttpResponse<String> response, String scope, String limit) throws Exception {
        JsonNode problem = AssistantEndpointTest.assertProblem(response, 429, "rate_limited");
        assertTrue(problem.get("detail").asText().contains("open at once"), problem.toString());
        HttpHeadersAssert headers = new HttpHeadersAssert(response);
        headers.is("X-RateLimit-Scope", scope);
        headers.is("X-RateLimit-Limit", limit);
        headers.is("X-RateLimit-Remaining", "0");
        headers.is("Retry-After", "5");
    }

    private BufferedReader stream(String address, Duration patience) throws Exception {
        return stream(http, from(address, question("please wait")), patience);
    }

    /**
     * A stream held open by the model ({@link GatedModel}), read through its first text part; the request is sent
     * again every 250 ms while refused, for up to {@code patience}.
     */
    static BufferedReader stream(HttpClient http, HttpRequest.Builder request, Duration patience) throws Exception {
        long deadline = System.nanoTime() + patience.toNanos();
        HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        while (response.statusCode() != 200 && System.nanoTime() < deadline) {
            response.body().close();
            Thread.sleep(250);
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        }
        BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        if (response.statusCode() != 200) {
            throw new AssertionError(response.statusCode() + " " + lines.lines().toList());
        }
        for (String line = lines.readLine(); line == null || !line.startsWith("0:"); line = lines.readLine()) {
            assertTrue(line != null, "the stream ended before its first text");
        }
        return lines;
    }

    /** Reads each stream to its end, which it must reach in full, and closes it. */
    static void assertAnsweredInFull(List<BufferedReader> streams) throws Exception {
        for (BufferedReader stream : streams) {
            try (stream) {
                assertTrue(stream.lines().anyMatch(line -> line.startsWith("d:")), "answered in full");
            }
        }
    }

    private HttpRequest.Builder from(String address, String body) {
        return post("/v1/assistant/acme/message", ACME_KEY, body).header("X-Forwarded-For", address);
    }
}
