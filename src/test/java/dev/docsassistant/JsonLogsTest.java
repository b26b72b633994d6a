package dev.docsassistant;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ASSISTANT_LOG_FORMAT=json} as a log collector reads it: the service in its own JVM, tracing on, its
 * standard output and error captured; every line must be one JSON object, and the lines a request caused carry its
 * id and trace id.
 */
class JsonLogsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
    /** The jar's main class (pom.xml). */
    private static final String MAIN = "dev.docsassistant.web.Service";

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
        int port = freePort();
        int managementPort = freePort();
        Process service;
        try (OpenAiStub model = new OpenAiStub()) {
            model.then(model.status(503, Map.of()), model.answer("Set ", "the ", "port."));
            List<String> command = javaCommand();
            command.addAll(List.of(
                    "-Dcamel.server.port=" + port,
                    "-Dcamel.management.port=" + managementPort,
                    "-Dassistant.tenants-file=src/test/resources/tenants-model-cost.yaml",
                    "-Dassistant.model.provider=openai",
                    "-Dassistant.model.base-url=" + model.baseUrl(),
                    "-Dassistant.model.retry-backoff-ms=10",
                    "-Dassistant.search.semantic=false",
                    "-Dassistant.search.reload-seconds=0",
                    "-Dotel.exporter.otlp.endpoint=http://127.0.0.1:" + collector.getAddress().getPort(),
                    "-Dotel.exporter.otlp.protocol=http/protobuf", // the collector speaks HTTP/1.1 only
                    "-Dotel.bsp.schedule.delay=50",
                    MAIN));
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().put("ASSISTANT_LOG_FORMAT", format);
            builder.environment().remove("CAMEL_MANAGEMENT_PORT"); // the suite's random port, which would win over -D
            service = builder.start();
            try {
                awaitHealthy(http, managementPort);
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + port + "/v1/assistant/acme/message"))
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
            } finally {
                service.destroy(); // SIGTERM: the shutdown's lines too
                assertTrue(service.waitFor(60, TimeUnit.SECONDS));
            }
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
        List<String> command = javaCommand();
        command.addAll(List.of("-Dcamel.server.port=" + freePort(), "-Dcamel.management.port=" + freePort(),
                "-Dassistant.client-ip-header=X-Real-IP", "-Dassistant.search.semantic=false", MAIN));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("ASSISTANT_LOG_FORMAT", "ecs");
        builder.environment().remove("CAMEL_MANAGEMENT_PORT");
        Process service = builder.start();
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
     * The service's JVM as the image starts it: its class path, the jar's main class, and the JVM options of the
     * Containerfile's entry point that this JVM knows (those of JDK 24+ silence warnings printed as plain text, JDK 25's
     * name the AOT cache).
     */
    private static List<String> javaCommand() throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path")));
        for (JsonNode argument : containerEntryPoint()) {
            String option = argument.asText();
            // the AOT cache's (JDK 25): the image's file is missing here, which the service says in one JSON line
            boolean aot = option.startsWith("-XX:AOT") || option.startsWith("-Xlog:aot");
            if (aot ? Runtime.version().feature() >= 25
                    : option.startsWith("-XX:") || option.startsWith("--") && Runtime.version().feature() >= 24) {
                command.add(option);
            }
        }
        return command;
    }

    private static JsonNode containerEntryPoint() throws IOException {
        for (String line : Files.readAllLines(Path.of("Containerfile"))) {
            if (line.startsWith("ENTRYPOINT ")) {
                return JSON.readTree(line.substring("ENTRYPOINT ".length()));
            }
        }
        throw new AssertionError("no ENTRYPOINT in the Containerfile");
    }

    /** Both streams' lines, each asserted to be one JSON object and nothing else; the files are deleted. */
    private static List<String> jsonLines(Path out, Path err) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Path stream : List.of(out, err)) {
            for (String line : Files.readAllLines(stream)) {
                assertTrue(JSON.readTree(line).isObject(), stream + ": " + line); // fails on any line not JSON
                lines.add(line);
            }
            Files.delete(stream);
        }
        assertFalse(lines.isEmpty());
        return lines;
    }

    /** Waits (90 s at most) until the health endpoint on this port answers 200: a service started as a process. */
    static void awaitHealthy(HttpClient http, int port) throws InterruptedException {
        awaitHealthy(http, port, 90);
    }

    static void awaitHealthy(HttpClient http, int port, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/observe/health"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(100);
        }
        throw new AssertionError("The service did not become healthy");
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
