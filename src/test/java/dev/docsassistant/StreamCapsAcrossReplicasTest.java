package dev.docsassistant;

import java.io.BufferedReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The caps on requests open at once hold in total across two instances sharing one real Redis: an address's
 * streams on either count against its cap, an organization's against its own, and each place is given back (to
 * both) when its stream ends. Clients are told apart by X-Forwarded-For from the trusted proxy (127.0.0.1).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamCapsAcrossReplicasTest {

    /** How long a place may take to come back once its client saw the stream's end. */
    private static final Duration AFTER_THE_END = Duration.ofSeconds(10);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final GatedModel model = new GatedModel();
    private RedisServer redis;
    private ServiceInstance a;
    private ServiceInstance b;

    @BeforeAll
    void start() throws Exception {
        redis = RedisServer.startOrSkip();
        Map<String, String> properties = ServiceInstance.onRedis(redis.url(0), "open", 1000);
        properties.put("assistant.tenants-file", "src/test/resources/tenants-fairness.yaml"); // acme: 3 open at once
        properties.put("assistant.model.provider", "gated");
        properties.put("assistant.trusted-proxies", "127.0.0.1");
        properties.put("assistant.ratelimit.ip-max-streams", "2");
        a = ServiceInstance.start(properties, Map.of("gatedModel", model), http);
        b = ServiceInstance.start(properties, Map.of("gatedModel", model), http);
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable resource : new AutoCloseable[] {a, b, redis}) {
            if (resource != null) {
                resource.close();
            }
        }
    }

    @Test
    void eachCapHoldsInTotalAcrossInstancesAndPlacesComeBackWhenStreamsEnd() throws Exception {
        model.hold();
        List<BufferedReader> open = new ArrayList<>();
        try {
            open.add(stream(a, "198.51.100.1", Duration.ZERO));
            open.add(stream(b, "198.51.100.1", Duration.ZERO));
            ClientFairnessTest.assertRefused(http.send(request(a, "198.51.100.1").build(),
                    HttpResponse.BodyHandlers.ofString()), "ip-streams", "2");
            open.add(stream(b, "198.51.100.2", Duration.ZERO));
            ClientFairnessTest.assertRefused(http.send(request(a, "198.51.100.3").build(),
                    HttpResponse.BodyHandlers.ofString()), "org-streams", "3");
        } finally {
            model.release();
        }
        ClientFairnessTest.assertAnsweredInFull(open);

        // Their places are free again, on both instances (given back just after each client saw its end): the
        // organization's three streams open.
        model.hold();
        open.clear();
        try {
            open.add(stream(b, "198.51.100.1", AFTER_THE_END));
            open.add(stream(a, "198.51.100.1", AFTER_THE_END));
            open.add(stream(a, "198.51.100.3", AFTER_THE_END));
        } finally {
            model.release();
        }
        ClientFairnessTest.assertAnsweredInFull(open);
    }

    private BufferedReader stream(ServiceInstance instance, String address, Duration patience) throws Exception {
        return ClientFairnessTest.stream(http, request(instance, address), patience);
    }

    /** A question held open by the gated model, from {@code address} behind the trusted proxy. */
    static HttpRequest.Builder request(ServiceInstance instance, String address) {
        return HttpRequest.newBuilder(instance.uri("/v1/assistant/acme/message"))
                .timeout(Duration.ofSeconds(15))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + ServiceTest.ACME_KEY)
                .header("X-Forwarded-For", address)
                .POST(HttpRequest.BodyPublishers.ofString(ServiceTest.question("please wait")));
    }
}
