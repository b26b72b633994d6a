package dev.docsassistant;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ASSISTANT_LOG_FORMAT=json} as a log collector reads it: the service in its own JVM ({@link OwnJvmService}),
 * its standard output and error captured; every line must be one JSON object, and the lines a request caused carry
 * its id and trace id.
 */
class JsonLogsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void everyLineIsOneJsonObjectAndARequestsLinesNameIt() throws Exception {
        List<JsonNode> logs = linesOfAnAnswer("json");
        for (JsonNode log : logs) {
            Instant.parse(log.get("@timestamp").asText());
            assertTrue(log.hasNonNull("level") && log.hasNonNull("logger_name"), log.toString());
        }

        JsonNode retried = first(logs, l -> l.path("message").asText().startsWith("Model call failed"), "retry");
        assertEquals("req-answer", retried.path("requestId").asText(), retried.toString());
        assertTraced(retried, "trace_id", "span_id");
        assertEquals("01", retried.path("trace_flags").asText(), retried.toString());

        JsonNode access = first(logs, l -> l.get("logger_name").asText().equals("dev.docsassistant.access")
                && l.path("requestId").asText().equals("req-answer"), "access");
        assertEquals(200, access.get("status").asInt(), "the access line's values are fields: " + access);
        assertEquals("assistant-v1-message", access.get("route").asText());
        assertTraced(access, "trace_id", "span_id");
        assertFalse(access.has("message"), "not a JSON string inside the object: " + access);

        assertTrue(logs.stream().anyMatch(l -> l.get("logger_name").asText().startsWith("io.opentelemetry")),
                "the SDK's own lines (the collector's 400) are JSON too: " + logs);
        for (JsonNode log : logs) {
            if (log.get("logger_name").asText().startsWith("dev.docsassistant.model")) {
                assertEquals("req-answer", log.path("requestId").asText(), "a line the answer caused: " + log);
            }
        }
    }

    /** {@code ASSISTANT_LOG_FORMAT=ecs}: a request's lines carry its trace and span as ECS names them. */
    @Test
    void ecsLinesNameTheTraceAndSpanAsEcsDoes() throws Exception {
        List<JsonNode> logs = linesOfAnAnswer("ecs");
        for (JsonNode log : logs) {
            assertFalse(log.has("trace_id") || log.has("span_id"), "not OpenTelemetry's names: " + log);
        }
        assertTraced(first(logs, l -> l.path("message").asText().startsWith("Model call failed"), "retry"),
                "trace.id", "span.id");
        assertTraced(first(logs, l -> l.path("log.logger").asText().equals("dev.docsassistant.access")
                && l.path("requestId").asText().equals("req-answer"), "access"), "trace.id", "span.id");
    }

    /** The first line that matches, or a failure naming the line looked for. */
    private static JsonNode first(List<JsonNode> logs, Predicate<JsonNode> which, String what) {
        return logs.stream().filter(which).findFirst()
                .orElseThrow(() -> new AssertionError("no " + what + " line in " + logs));
    }

    /** The line carries the answer's trace, and a span of it, under these keys. */
    private static void assertTraced(JsonNode log, String traceKey, String spanKey) {
        assertEquals(TRACE, log.path(traceKey).asText(), log.toString());
        assertTrue(log.path(spanKey).asText().matches("[0-9a-f]{16}"), "a span: " + log);
    }

    /**
     * The lines, each one JSON object, of the service in its own JVM with tracing on and logs in {@code format}, asked
     * a question (request id req-answer, trace {@link #TRACE}) whose first model call fails, then stopped.
     */
    private List<JsonNode> linesOfAnAnswer(String format) throws Exception {
        Path out = Files.createTempFile("assistant-stdout", ".log");
        Path err = Files.createTempFile("assistant-stderr", ".log");
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        CountDownLatch refusedExport = new CountDownLatch(1);
        collector.createContext("/", exchange -> { // a collector that fails: the SDK's complaints are lines too
            exchange.sendResponseHeaders(400, -1);
            exchange.close();
            refusedExport.countDown();
        });
        collector.start();
        try (OpenAiStub model = new OpenAiStub()) {
            model.then(model.status(503, Map.of()), model.answer("Set ", "the ", "port."));
            try (OwnJvmService service = OwnJvmService.launch(currentJava(), imageOptions(Runtime.version().feature()),
                            out, err)
                    .property("assistant.tenants-file", "src/test/resources/tenants-model-cost.yaml")
                    .property("assistant.model.provider", "openai")
                    .property("assistant.model.base-url", model.baseUrl())
                    .property("assistant.model.retry-backoff-ms", "10")
                    .property("assistant.search.semantic", "false")
                    .property("assistant.search.reload-seconds", "0")
                    .property("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + collector.getAddress().getPort())
                    .property("otel.exporter.otlp.protocol", "http/protobuf") // the collector speaks HTTP/1.1 only
                    .property("otel.bsp.schedule.delay", "50")
                    .environment("ASSISTANT_LOG_FORMAT", format)
                    .start(90)) {
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(service.uri("/v1/assistant/acme/message"))
                        .timeout(Duration.ofSeconds(15))
                        .header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + ServiceTest.ACME_KEY)
                        .header("X-Request-Id", "req-answer")
                        .header("traceparent", "00-" + TRACE + "-b7ad6b7169203331-01")
                        .POST(HttpRequest.BodyPublishers.ofString(ServiceTest.question("How do I change the port?")))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, answer.statusCode(), answer.body());
                // the SDK's complaint is logged once its export was refused: stopping sooner would race it
                assertTrue(refusedExport.await(20, TimeUnit.SECONDS), "no span was exported");
                Thread.sleep(500); // the SDK logs the refusal after reading the answer
            } // SIGTERM: the shutdown's lines too
        } finally {
            collector.stop(0);
        }

        List<JsonNode> logs = new ArrayList<>();
        for (String line : jsonLines(out, err)) {
            logs.add(JSON.readTree(line));
        }
        return logs;
    }

    /**
     * {@code ASSISTANT_LOG_FORMAT=ecs} and a configuration the service refuses: it stops at once, and its failure is
     * one JSON line in the Elastic Common Schema with the stack trace a field, on a stream with nothing else.
     */
    @Test
    void aStartUpFailureIsAnEcsJsonLineWithItsStackTrace() throws Exception {
        Path out = Files.createTempFile("assistant-stdout", ".log");
        Path err = Files.createTempFile("assistant-stderr", ".log");
        Process service = OwnJvmService.launch(currentJava(), imageOptions(Runtime.version().feature()), out, err)
                .property("assistant.client-ip-header", "X-Real-IP")
                .property("assistant.search.semantic", "false")
                .environment("ASSISTANT_LOG_FORMAT", "ecs")
                .process();
        assertTrue(service.waitFor(90, TimeUnit.SECONDS), "the service did not stop");
        assertEquals(1, service.exitValue());

        List<String> lines = jsonLines(out, err);
        JsonNode failure = null;
        for (String line : lines) {
            JsonNode log = JSON.readTree(line);
            assertTrue(log.has("log.level") && log.has("log.logger") && log.has("ecs.version"), line);
            if (log.path("log.level").asText().equals("ERROR")) {
                failure = log;
            }
        }
        assertTrue(failure != null, "no error line in " + lines);
        assertEquals("dev.docsassistant.web.Service", failure.path("log.logger").asText(), failure.toString());
        assertTrue(failure.path("error.stack_trace").asText()
                .contains("assistant.client-ip-header must be 'X-Forwarded-For' or 'Forwarded'"), failure.toString());
    }

    /**
     * The service as the image starts it (the Containerfile's entry point) and as Camel K does (the Integration's
     * {@code jvm.options}), on a JDK before the JVM's warnings (17) and on the image's JDK 25, with the shipped
     * settings (semantic search: Lucene and the embedding model's native library) and {@code ASSISTANT_LOG_FORMAT=json},
     * asked a question and stopped: every line on both streams is JSON. Neither Lucene's java.util.logging lines nor
     * JDK 24+'s plain {@code WARNING:} lines on Netty's sun.misc.Unsafe and on native access get through, and Lucene's
     * line is in the log as JSON, not dropped.
     */
    @ParameterizedTest(name = "{0} on JDK {1}")
    @SameOnAnyJdk // each case starts the jar on the JDK it names
    @CsvSource({"image, 17", "camel-k, 17", "image, 25", "camel-k, 25"})
    void nothingButJsonLinesAsTheImageAndCamelKStartTheJar(String how, int jdk) throws Exception {
        OwnJvmService.Jdk java = OwnJvmService.jdk(version -> jdk >= 25 ? version >= 25 : version < 24).orElse(null);
        Assumptions.assumeTrue(java != null, "SKIPPED: no JDK " + (jdk >= 25 ? "25+" : "before 24") + " in "
                + OwnJvmService.jvms() + " nor running this test");
        List<String> options = how.equals("image") ? imageOptions(java.feature()) : camelKOptions(java.feature());
        Path out = Files.createTempFile("assistant-stdout", ".log");
        Path err = Files.createTempFile("assistant-stderr", ".log");
        try (OwnJvmService service = OwnJvmService.launch(java.java(), options, out, err)
                .property("assistant.demo.key", ServiceTest.ACME_KEY)
                .environment("ASSISTANT_LOG_FORMAT", "json")
                .start(180)) {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(service.uri("/v1/assistant/demo/message"))
                    .timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + ServiceTest.ACME_KEY)
                    .POST(HttpRequest.BodyPublishers.ofString(ServiceTest.question("How do I change the port?")))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
        }
        List<String> lines = jsonLines(out, err);
        if (java.feature() >= 23) { // Lucene 9 says it does not use this JDK's Vector API
            assertTrue(lines.stream().anyMatch(line -> line.contains("\"logger_name\":\"org.apache.lucene.")),
                    "Lucene's java.util.logging line is a JSON line: " + lines);
        }
    }

    /**
     * The JVM options of the Containerfile's entry point that a JDK of this version knows (those of JDK 24+ silence
     * warnings printed as plain text, JDK 25's name the AOT cache).
     */
    private static List<String> imageOptions(int feature) throws IOException {
        for (String line : Files.readAllLines(Path.of("Containerfile"))) {
            if (line.startsWith("ENTRYPOINT ")) {
                return knownTo(feature, List.of(JSON.readValue(line.substring("ENTRYPOINT ".length()), String[].class)));
            }
        }
        throw new AssertionError("no ENTRYPOINT in the Containerfile");
    }

    /** The Camel K Integration's {@code jvm.options} that a JDK of this version knows (it runs the image's, 25). */
    private static List<String> camelKOptions(int feature) throws IOException {
        JsonNode jvm = new YAMLMapper().readTree(Path.of("k8s/camel-k/integration.yaml").toFile())
                .path("spec").path("traits").path("jvm");
        assertTrue(jvm.path("options").isArray(), jvm.toString());
        return knownTo(feature, List.of(JSON.treeToValue(jvm.path("options"), String[].class)));
    }

    /** Of a java command line, the JVM options a JDK of this version knows; not {@code java}, {@code -jar} nor the jar. */
    private static List<String> knownTo(int feature, List<String> arguments) {
        List<String> options = new ArrayList<>();
        for (String option : arguments) {
            // the AOT cache's (JDK 25): the image's file is missing here, which the service says in one JSON line
            boolean aot = option.startsWith("-XX:AOT") || option.startsWith("-Xlog:aot");
            if (aot ? feature >= 25 : option.startsWith("-XX:") || option.startsWith("--") && feature >= 24) {
                options.add(option);
            }
        }
        return options;
    }

    private static Path currentJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** Both streams' lines, each asserted to be one JSON object and nothing else; the files are deleted. */
    private static List<String> jsonLines(Path out, Path err) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Path stream : List.of(out, err)) {
            for (String line : Files.readAllLines(stream)) {
                assertTrue(isJsonObject(line), "not one JSON object, in " + stream + ": " + line);
                lines.add(line);
            }
            Files.delete(stream);
        }
        assertFalse(lines.isEmpty());
        return lines;
    }

    private static boolean isJsonObject(String line) {
        try {
            return JSON.readTree(line).isObject();
        } catch (JsonProcessingException notJson) {
            return false;
        }
    }
}
