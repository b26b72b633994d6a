package dev.docsassistant;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The README's first command: no tenants file, no demo key set. The key the start-up log announces is the one the
 * service accepts (Camel creates the tenants bean more than once while loading the routes; each must agree).
 */
class DemoTenantTest {

    private static final Pattern ANNOUNCED = Pattern.compile(
            "Demo tenant ready: .*Bearer (mint_dsc_[\\w-]+)'.*Bearer (mint_[\\w-]+)'");

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void theAnnouncedDemoKeyIsTheOneAccepted() throws Exception {
        CapturedLogs logs = CapturedLogs.capture();
        // A prefix of its own: the demo key is generated (and announced) once per process and key prefix, and other
        // tests in this JVM may have started the demo tenant with the default prefix before.
        try (ServiceInstance service = ServiceInstance.start(Map.of(
                "assistant.tenants-file", "",
                "assistant.demo.key", "",
                "assistant.auth.key-prefix", "mint_dsc_announced_",
                "assistant.search.semantic", "false"), http)) {
            List<Matcher> lines = logs.lines().stream().map(ANNOUNCED::matcher).filter(Matcher::find).toList();
            assertFalse(lines.isEmpty(), "the start-up log announces the demo key and an admin key");
            assertEquals(1, lines.size(), "announced once, however often the bean is created");
            List<String> keys = List.of(lines.get(0).group(1));
            String adminKey = lines.get(0).group(2);

            String question = ServiceTest.question("How do I change the port?");
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(service.uri("/v1/assistant/demo/message"))
                    .timeout(Duration.ofSeconds(20))
                    .header("Authorization", "Bearer " + keys.get(0)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(question)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());

            // the docs team's endpoints answer the admin key, and the public key is not one
            for (String key : List.of(adminKey, keys.get(0))) {
                HttpResponse<String> threads = http.send(HttpRequest.newBuilder(
                                service.uri("/v1/admin/demo/threads")).timeout(Duration.ofSeconds(20))
                        .header("Authorization", "Bearer " + key).GET().build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(key.equals(adminKey) ? 200 : 401, threads.statusCode(), threads.body());
            }
        }
    }
}
