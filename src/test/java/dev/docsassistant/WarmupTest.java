package dev.docsassistant;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Warm before ready (issue 42), as a pod starts: the jar's main class in its own JVM with
 * {@code assistant.warmup.requests} set. Neither of its ports answers until the warm-up has asked its questions, all
 * answered; then the service answers its own tenant, and nothing of the warm-up is left: no key or line in the logs,
 * no tenants file, no series in the service's metrics, nothing in the service's Redis or its records' folder, both set
 * by variables as an operator sets them (Camel lets a variable win over a Main's own overrides), with a mounted
 * properties file as the pods have.
 */
class WarmupTest {

    private static final Pattern WARMED =
            Pattern.compile("Warmed up in [0-9.]+ s: (\\d+) answers \\((\\d+) refused\\)");
    private static final Pattern DEMO_KEY = Pattern.compile("Bearer (mint_dsc_[A-Za-z0-9_-]+)'");

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void noPortAnswersUntilTheWarmUpAnsweredItsQuestionsAndNothingOfItRemains(@TempDir Path tmp) throws Exception {
        int port = OwnJvmService.freePort();
        int management = OwnJvmService.freePort();
        Path log = tmp.resolve("service.log");
        Path scratch = Files.createDirectory(tmp.resolve("scratch"));
        ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), "-Djava.io.tmpdir=" + scratch,
                "-Dassistant.search.semantic=false", "dev.docsassistant.web.Service")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("CAMEL_SERVER_PORT", Integer.toString(port));
        builder.environment().put("CAMEL_MANAGEMENT_PORT", Integer.toString(management));
        builder.environment().put("ASSISTANT_WARMUP_REQUESTS", "600");
        builder.environment().put("ASSISTANT_WARMUP_MAX_SECONDS", "120");
        Path records = tmp.resolve("records");
        builder.environment().put("ASSISTANT_RECORDS_DATA_DIR", records.toString());
        // a mounted Secret's properties, as the shipped pods have them (Camel read them over the warm-up's overrides
        // and failed on them: every pod started cold)
        Path mounted = Files.createDirectory(tmp.resolve("mounted"));
        Files.writeString(mounted.resolve("secret.properties"), "assistant.model.api-key =\n");
        builder.environment().put("CAMEL_MAIN_CLOUD_PROPERTIES_LOCATION", mounted.toString());
        try (RedisServer redis = RedisServer.startOrSkip()) {
            builder.environment().put("ASSISTANT_STORE", "redis");
            builder.environment().put("ASSISTANT_REDIS_URL", redis.url(3));
            startWarmAndAsk(builder, log, scratch, records, redis, port, management);
        }
    }

    private void startWarmAndAsk(ProcessBuilder builder, Path log, Path scratch, Path records, RedisServer redis,
            int port, int management) throws Exception {
        Process service = builder.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            // until the warm-up has ended, neither port may accept a connection (the pod is not ready)
            while (!WARMED.matcher(Files.readString(log)).find()) {
                assertTrue(service.isAlive() && System.nanoTime() < deadline, Files.readString(log));
                assertFalse(Files.readString(log).contains("The warm-up failed"), Files.readString(log));
                for (int listening : List.of(port, management)) {
                    assertFalse(accepts(listening), "port " + listening + " answered during the warm-up");
                }
                // the service's own start checks its records' folder right after the warm-up: one seen before the
                // warm-up said it had ended is the warm-up's
                boolean opened = Files.exists(records);
                assertFalse(opened && !WARMED.matcher(Files.readString(log)).find(),
                        "the warm-up opened the service's records");
                Thread.sleep(50);
            }
            Matcher warmed = WARMED.matcher(Files.readString(log));
            assertTrue(warmed.find());
            assertEquals("600", warmed.group(1), "every question answered");
            assertEquals("0", warmed.group(2));
            assertEquals("0", redis.cli("-n", "3", "DBSIZE").strip(), "the warm-up wrote to the service's Redis");
            OwnJvmService.awaitHealthy(http, management, 90, service);
            // the warm-up's tenants file is gone, and it ran before the service's own first line
            try (var left = Files.list(scratch)) {
                assertTrue(left.noneMatch(file -> file.getFileName().toString().startsWith("docs-assistant-warm-up")));
            }
            String text = Files.readString(log);
            assertTrue(text.indexOf("Warmed up in") < text.indexOf("Demo tenant ready"), text);
            assertTheDemoAnswers(http, port, text);
            String metrics = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + management + "/observe/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.contains("domain=\"demo\""), "the service's own answer is counted");
            assertFalse(metrics.contains("warm-up"), "a series of the warm-up is in the service's metrics");
            assertFalse(Files.readString(log).contains("mint_dsc_warmup_"), "the warm-up's key was logged");
            // nor its Camel's lines, written through the tracing appender's
            assertFalse(Files.readString(log).contains("docs-assistant-warm-up"), "the warm-up's lines were logged");
            assertFalse(Files.readString(log).contains("/assistant/warm-up/"), "the warm-up's access lines logged");
            assertTrue(Files.readString(log).contains("/v1/assistant/demo/message"), "the service's access line");
            // the writer takes its row after the answer, once its linger (assistant.records.linger-ms) has passed
            for (int i = 0; i < 200 && !Files.exists(records); i++) {
                Thread.sleep(50);
            }
            assertTrue(Files.exists(records), "the service keeps its records where it was told");
            assertTrue(Integer.parseInt(redis.cli("-n", "3", "DBSIZE").strip()) > 0, "the service uses its Redis");
            assertEquals("", redis.cli("-n", "3", "--scan", "--pattern", "*warm-up*").strip());
        } finally {
            service.destroy();
            assertTrue(service.waitFor(60, TimeUnit.SECONDS));
        }
    }

    /** The demo tenant answers a question asked with the demo key that the service's start-up log printed. */
    static void assertTheDemoAnswers(HttpClient http, int port, String log) throws IOException, InterruptedException {
        Matcher key = DEMO_KEY.matcher(log);
        assertTrue(key.find(), log);
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/v1/assistant/demo/message"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + key.group(1))
                .POST(HttpRequest.BodyPublishers.ofString(ServiceTest.question("How do I change the port?")))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}
