package dev.docsassistant;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.docsassistant.openapi.ApiTraffic;
import dev.docsassistant.openapi.ApiTrafficCheck;
import org.apache.camel.CamelContext;
import org.apache.camel.component.platform.http.PlatformHttpComponent;
import org.apache.camel.main.Main;

/**
 * One more instance of the service in this JVM: a Camel {@link Main} on the real application.properties and YAML
 * routes, on a free port, as a replica would run. Several share one Redis in the multi-instance tests.
 */
final class ServiceInstance implements AutoCloseable {

    private final Main main = new Main();
    private final int port;

    private ServiceInstance(Map<String, String> properties, Map<String, Object> beans) throws Exception {
        main.addOverrideProperty("camel.server.port", "0");
        properties.forEach(main::addOverrideProperty);
        beans.forEach(main::bind);
        main.start();
        port = context().getComponent("platform-http", PlatformHttpComponent.class).getEngine().getServerPort();
    }

    /** Starts an instance and waits until it reports healthy (its indexes loaded, its store reachable). */
    static ServiceInstance start(Map<String, String> properties, HttpClient http) throws Exception {
        return start(properties, Map.of(), http);
    }

    /** As {@link #start(Map, HttpClient)}, with beans of the test's own in the registry (a model, say). */
    static ServiceInstance start(Map<String, String> properties, Map<String, Object> beans, HttpClient http)
            throws Exception {
        ServiceInstance instance = new ServiceInstance(properties, beans);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!instance.healthy(http)) {
            if (System.nanoTime() > deadline) {
                instance.close();
                throw new AssertionError("The instance did not become healthy");
            }
            Thread.sleep(50);
        }
        return instance;
    }

    /**
     * A replica's properties in the multi-instance tests: quotas and threads on the Redis at {@code redisUrl}, their
     * tenants (tenants-shared.yaml), the given per-IP daily quota, and no semantic search or reloads to wait for.
     */
    static Map<String, String> onRedis(String redisUrl, String whenUnreachable, int ipPerDay) {
        Map<String, String> properties = new HashMap<>();
        properties.put("assistant.tenants-file", "src/test/resources/tenants-shared.yaml");
        properties.put("assistant.store", "redis");
        properties.put("assistant.redis.url", redisUrl);
        properties.put("assistant.redis.when-unreachable", whenUnreachable);
        properties.put("assistant.ratelimit.org-per-hour", "1000");
        properties.put("assistant.ratelimit.ip-per-day", Integer.toString(ipPerDay));
        properties.put("assistant.search.semantic", "false");
        properties.put("assistant.search.reload-seconds", "0");
        return properties;
    }

    CamelContext context() {
        return main.getCamelContext();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    HttpResponse<String> health(HttpClient http) throws IOException, InterruptedException {
        URI health = URI.create("http://127.0.0.1:" + ServiceTest.managementPort(context()) + "/observe/health");
        return http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A message to the assistant endpoint, with a deadline: a request that hangs fails the test. */
    HttpResponse<String> message(HttpClient http, String domain, String key, String body)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri("/v1/assistant/" + domain + "/message"))
                .timeout(Duration.ofSeconds(15))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private boolean healthy(HttpClient http) throws InterruptedException {
        try {
            return health(http).statusCode() == 200;
        } catch (IOException e) { // a first health check that connects to Redis can be slow on a busy machine
            return false;
        }
    }

    <T> T bean(String name, Class<T> type) {
        return context().getRegistry().lookupByNameAndType(name, type);
    }

    /** Stops the instance; its traffic is checked against openapi.yaml when the test class ends. */
    @Override
    public void close() {
        ApiTrafficCheck.checkLater(ApiTraffic.of(context()));
        main.stop();
    }
}
