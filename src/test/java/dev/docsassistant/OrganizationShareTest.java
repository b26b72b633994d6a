package dev.docsassistant;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An organization's 200 open places (the defaults: 20 per address, 10 % reserved for addresses holding none) are
 * shared: 12 addresses each keeping 20 answers open cannot take them all, and a 13th address is served, in memory and
 * on a real Redis alike. Clients are told apart by X-Forwarded-For from the trusted proxy (127.0.0.1).
 */
class OrganizationShareTest {

    private static final int BUSY_ADDRESSES = 12;
    private static final int STREAMS_EACH = 20;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void twelveBusyAddressesLeaveAThirteenthServedInMemory() throws Exception {
        Map<String, String> properties = new HashMap<>();
        properties.put("assistant.tenants-file", "src/test/resources/tenants.yaml");
        properties.put("assistant.search.semantic", "false");
        assertThirteenthServed(properties);
    }

    @Test
    void twelveBusyAddressesLeaveAThirteenthServedOnRedis() throws Exception {
        try (RedisServer redis = RedisServer.startOrSkip()) {
            Map<String, String> properties = ServiceInstance.onRedis(redis.url(0), "closed", 1000);
            properties.put("assistant.redis.timeout-ms", "10000"); // every count on Redis: none on a busy machine's timeout
            assertThirteenthServed(properties);
        }
    }

    private void assertThirteenthServed(Map<String, String> properties) throws Exception {
        properties.put("assistant.model.provider", "gated");
        properties.put("assistant.trusted-proxies", "127.0.0.1");
        GatedModel model = new GatedModel();
        model.hold();
        List<BufferedReader> open = new ArrayList<>();
        try (ServiceInstance service = ServiceInstance.start(properties, Map.of("gatedModel", model), http)) {
            int refused = 0;
            try {
                for (int address = 1; address <= BUSY_ADDRESSES; address++) {
                    for (int i = 0; i < STREAMS_EACH; i++) {
                        HttpResponse<InputStream> response = http.send(StreamCapsAcrossReplicasTest.request(service, "198.51.100." + address)
                                .build(), HttpResponse.BodyHandlers.ofInputStream());
                        if (response.statusCode() == 200) {
                            open.add(throughFirstText(response));
                        } else {
                            refused++;
                            assertOrganizationRefused(response);
                        }
                    }
                }
                assertEquals(183, open.size(), "9 addresses hold 180 places, the last 3 one of the reserve each");
                assertEquals(BUSY_ADDRESSES * STREAMS_EACH - 183, refused);

                HttpResponse<String> thirteenth = http.send(StreamCapsAcrossReplicasTest.request(service, "198.51.100.13")
                        .POST(HttpRequest.BodyPublishers.ofString(ServiceTest.question("How do I run it?"))).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, thirteenth.statusCode(), "a 13th address is served: " + thirteenth.body());
                assertTrue(thirteenth.body().contains("\nd:{"), thirteenth.body());
            } finally {
                model.release();
            }
            ClientFairnessTest.assertAnsweredInFull(open);
        }
    }

    private static void assertOrganizationRefused(HttpResponse<InputStream> response) throws IOException {
        try (InputStream body = response.body()) {
            String problem = new String(body.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(429, response.statusCode(), problem);
            assertEquals("org-streams", response.headers().firstValue("X-RateLimit-Scope").orElseThrow(), problem);
            assertTrue(problem.contains("kept for addresses with none open"), problem);
        }
    }

    private static BufferedReader throughFirstText(HttpResponse<InputStream> response) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line == null || !line.startsWith("0:"); line = lines.readLine()) {
            assertTrue(line != null, "the stream ended before its first text");
        }
        return lines;
    }
}
