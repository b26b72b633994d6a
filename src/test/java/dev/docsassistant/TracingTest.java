package dev.docsassistant;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import org.apache.camel.opentelemetry2.OpenTelemetryTracer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Traces as an operator gets them: the service configured with the standard OpenTelemetry settings, exporting
 * OTLP over HTTP (or gRPC) to a collector (a receiver in this test that decodes the protobuf spans), the model server
 * a stub that records the {@code traceparent} it was sent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TracingTest {

    private static final String CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CALLER_SPAN = "00f067aa0ba902b7";
    /** The model call's span: the GenAI conventions' operation and the model asked for. */
    private static final String MODEL_CALL = "chat gpt-4o-mini";

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Span> exported = new CopyOnWriteArrayList<>();
    private final List<Resource> exportedResources = new CopyOnWriteArrayList<>();
    private HttpServer collector;
    private OpenAiStub model;
    private ServiceInstance service;

    @BeforeAll
    void start() throws Exception {
        collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                for (ResourceSpans resource : ExportTraceServiceRequest.parseFrom(body).getResourceSpansList()) {
                    exportedResources.add(resource.getResource());
                    for (ScopeSpans scope : resource.getScopeSpansList()) {
                        exported.addAll(scope.getSpansList());
                    }
                }
            }
            byte[] ok = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, ok.length);
            exchange.getResponseBody().write(ok);
            exchange.close();
        });
        collector.start();
        model = new OpenAiStub();
        Map<String, String> properties = modelProperties();
        properties.put("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + collector.getAddress().getPort());
        properties.put("otel.exporter.otlp.protocol", "http/protobuf");
        properties.put("otel.service.name", "assistant-under-test");
        properties.put("otel.bsp.schedule.delay", "50");
        service = ServiceInstance.start(properties, http);
    }

    @AfterAll
    void stop() throws Exception {
        service.close();
        model.close();
        collector.stop(0);
    }

    private Map<String, String> modelProperties() {
        Map<String, String> properties = new HashMap<>();
        properties.put("assistant.tenants-file", "src/test/resources/tenants-model-cost.yaml");
        properties.put("assistant.model.provider", "openai");
        properties.put("assistant.model.base-url", model.baseUrl());
        properties.put("assistant.model.retry-backoff-ms", "10");
        properties.put("assistant.search.semantic", "false");
        properties.put("assistant.search.reload-seconds", "0");
        return properties;
    }

    @Test
    void oneAnswerIsOneTraceUnderTheCallersWithTheModelCallAndItsTraceparent() throws Exception {
        model.reset();
        model.then(model.status(503, Map.of()), model.answer("Set ", "the ", "port."));
        HttpResponse<String> answer = asked(service, ServiceTest.ACME_KEY,
                "traceparent", "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01",
                "baggage", "user.email=reader%40example.com");
        assertEquals(200, answer.statusCode(), answer.body());

        Span request = awaitSpan(s -> hex(s.getParentSpanId()).equals(CALLER_SPAN));
        Span modelCall = awaitSpan(s -> s.getName().equals(MODEL_CALL)
                && hex(s.getTraceId()).equals(CALLER_TRACE));
        assertEquals(CALLER_TRACE, hex(request.getTraceId()), "the caller's trace is adopted");
        assertTrue(names(exported).stream().noneMatch("timer"::equals), "no housekeeping traces: " + names(exported));
        Resource resource = exportedResources.get(0);
        assertEquals("assistant-under-test", resourceAttribute(resource, "service.name"));
        assertTrue(resourceAttribute(resource, "service.version").matches("\\d+\\.\\d+\\.\\d+.*"),
                resource.toString());
        assertEquals(36, resourceAttribute(resource, "service.instance.id").length(), "a UUID for this process");

        List<Span> trace = exported.stream().filter(s -> hex(s.getTraceId()).equals(CALLER_TRACE)).toList();
        for (Span span : trace) {
            assertTrue(span == request || descends(span, request, trace), span.getName() + " is in the request");
        }
        List<String> steps = names(children(request, trace));
        assertTrue(steps.containsAll(List.of("admission-message-v1", "validateRequest", "resolveThread",
                "invokeModel", "streamDataParts")), "the steps: " + steps);
        // admission (admission.yaml): the route's span, and its steps in their order
        Span admission = children(request, trace).stream()
                .filter(s -> s.getName().equals("admission-message-v1")).findFirst().orElseThrow();
        assertEquals(List.of("requestLog", "deprecatedV1", "cors", "authFailures", "authenticate", "throttle",
                "tokenBudget", "requireJsonBody", "organizationStreams"), names(children(admission, trace)));

        // the request by the HTTP server conventions: its method and route template, the path as requested
        assertEquals(Span.SpanKind.SPAN_KIND_SERVER, request.getKind());
        assertEquals("POST /v1/assistant/{domain}/message", request.getName());
        assertEquals("POST", attribute(request, "http.request.method").getStringValue());
        assertEquals("/v1/assistant/{domain}/message", attribute(request, "http.route").getStringValue());
        assertEquals("/v1/assistant/acme/message", attribute(request, "url.path").getStringValue());
        assertEquals("http", attribute(request, "url.scheme").getStringValue());
        assertEquals("127.0.0.1", attribute(request, "client.address").getStringValue());
        assertEquals(200, attribute(request, "http.response.status_code").getIntValue());
        for (String old : List.of("http.method", "http.url", "http.status_code", "op", "component", "exchangeId")) {
            assertNoAttribute(request, old);
        }
        // a step's attributes are Camel's, under its name
        Span invokeModel = trace.stream().filter(s -> s.getName().equals("invokeModel")).findFirst().orElseThrow();
        assertEquals(Span.SpanKind.SPAN_KIND_INTERNAL, invokeModel.getKind());
        assertEquals("EVENT_PROCESS", attribute(invokeModel, "camel.op").getStringValue());
        assertTrue(invokeModel.getAttributesList().stream().allMatch(a -> a.getKey().startsWith("camel.")),
                invokeModel.getAttributesList().toString());

        assertEquals(hex(invokeModel.getSpanId()), hex(modelCall.getParentSpanId()), "the model step calls it");
        // the model call by the GenAI conventions
        assertEquals(Span.SpanKind.SPAN_KIND_CLIENT, modelCall.getKind());
        assertEquals("chat", attribute(modelCall, "gen_ai.operation.name").getStringValue());
        assertEquals("openai", attribute(modelCall, "gen_ai.provider.name").getStringValue());
        assertEquals("gpt-4o-mini", attribute(modelCall, "gen_ai.request.model").getStringValue());
        assertEquals("stub-model", attribute(modelCall, "gen_ai.response.model").getStringValue());
        assertEquals("chatcmpl-stub", attribute(modelCall, "gen_ai.response.id").getStringValue());
        assertEquals(List.of("stop"), attribute(modelCall, "gen_ai.response.finish_reasons").getArrayValue()
                .getValuesList().stream().map(AnyValue::getStringValue).toList());
        assertEquals(1, attribute(modelCall, "assistant.model.retries").getIntValue());
        assertEquals(200, attribute(modelCall, "http.response.status_code").getIntValue());
        assertTrue(attribute(modelCall, "assistant.model.first_token_ms").getIntValue() >= 0);
        assertEquals(OpenAiStub.PROMPT_TOKENS, attribute(modelCall, "gen_ai.usage.input_tokens").getIntValue());
        assertEquals(3, attribute(modelCall, "gen_ai.usage.output_tokens").getIntValue());
        assertEquals("retry", modelCall.getEvents(0).getName(), "the 503 was retried");
        assertTrue(request.getEndTimeUnixNano() >= modelCall.getEndTimeUnixNano(),
                "the request span ends after the stream it wrote");

        assertEquals(2, model.requests.size());
        for (OpenAiStub.Request call : model.requests) {
            String[] traceparent = call.headers().get("traceparent").split("-");
            assertEquals(CALLER_TRACE, traceparent[1], "the model server joins the trace");
            assertFalse(call.headers().contains("baggage"), "no baggage: neither Camel's own entry nor the caller's");
            Span sender = trace.stream().filter(s -> hex(s.getSpanId()).equals(traceparent[2])).findFirst()
                    .orElseThrow(() -> new AssertionError("no exported span " + traceparent[2] + " in " + names(trace)));
            assertTrue(descends(sender, modelCall, trace), sender.getName() + " is part of the model call");
        }
    }

    /**
     * A refused request is a SERVER span too, named by its route, with its status and the client's address; a 4xx is
     * the client's error, so the span is not marked failed (OpenTelemetry's conventions for SERVER spans).
     */
    @Test
    void aRefusedRequestIsAServerSpanWithItsStatus() throws Exception {
        String trace = "6bf92f3577b34da6a3ce929d0e0e4738";
        HttpResponse<String> refused = asked(service, "mint_dsc_not_a_key",
                "traceparent", "00-" + trace + "-20f067aa0ba902b9-01");
        assertEquals(401, refused.statusCode(), refused.body());
        Span request = awaitSpan(s -> hex(s.getTraceId()).equals(trace) && s.getKind() == Span.SpanKind.SPAN_KIND_SERVER);
        assertEquals("POST /v1/assistant/{domain}/message", request.getName());
        assertEquals(401, attribute(request, "http.response.status_code").getIntValue());
        assertEquals("127.0.0.1", attribute(request, "client.address").getStringValue());
        assertTrue(request.getAttributesList().stream().noneMatch(a -> a.getKey().equals("camel.error")),
                "a client's error does not fail the span");
    }

    /**
     * A 5xx is the server's error: its SERVER span has status ERROR and {@code error.type} the status code
     * (OpenTelemetry's HTTP conventions), here a 502 for a model server that refused the call.
     */
    @Test
    void aServerErrorMarksItsServerSpanFailed() throws Exception {
        String trace = "6bf92f3577b34da6a3ce929d0e0e4739";
        model.then(model.status(400, Map.of()));
        HttpResponse<String> failed = asked(service, ServiceTest.ACME_KEY,
                "traceparent", "00-" + trace + "-20f067aa0ba902ba-01");
        assertEquals(502, failed.statusCode(), failed.body());
        Span request = awaitSpan(s -> hex(s.getTraceId()).equals(trace) && s.getKind() == Span.SpanKind.SPAN_KIND_SERVER);
        assertEquals(502, attribute(request, "http.response.status_code").getIntValue());
        assertEquals(Status.StatusCode.STATUS_CODE_ERROR, request.getStatus().getCode(), request.toString());
        assertEquals("502", attribute(request, "error.type").getStringValue());
    }

    /**
     * By default a share of the requests is traced (a trace of every answer costs a third of the throughput): one not
     * sampled exports nothing, yet still sends the model server its trace context; a caller's sampled trace is
     * followed whatever the share.
     */
    @Test
    void aRequestNotSampledExportsNothingAndACallersSampledTraceIsFollowed() throws Exception {
        Map<String, String> properties = samplingNone();
        properties.put("otel.service.name", "assistant-under-test"); // and OTLP over HTTP, the default
        properties.put("otel.bsp.schedule.delay", "50");
        try (ServiceInstance sampling = ServiceInstance.start(properties, http)) {
            String[] unsampled = askedNotSampled(sampling);
            assertFalse(model.requests.get(0).headers().contains("baggage"), "no baggage of Camel's own");

            String callerTrace = "5bf92f3577b34da6a3ce929d0e0e4737";
            HttpResponse<String> answer = asked(sampling, ServiceTest.ACME_KEY,
                    "traceparent", "00-" + callerTrace + "-10f067aa0ba902b8-01");
            assertEquals(200, answer.statusCode(), answer.body());
            awaitSpan(s -> hex(s.getTraceId()).equals(callerTrace) && s.getName().equals(MODEL_CALL));
            awaitSpan(s -> hex(s.getTraceId()).equals(callerTrace) && s.getName().equals("invokeModel"));
            // exported in the order they ended: had the first request's spans been made, they would be here
            assertTrue(exported.stream().noneMatch(s -> hex(s.getTraceId()).equals(unsampled[1])),
                    "spans of an unsampled request: " + names(exported));
        }
    }

    /**
     * A request not sampled is decided once, before Camel spans it, and takes Camel's untraced path: one decision,
     * none for its routes, endpoint calls, steps, the model call's exchange (which joins the request's decision) and
     * span (11 when each asked the sampler, 3 while the model call's span was begun unsampled, 2 while its exchange
     * was decided anew); and its trace context is set only on the call that leaves the process, the model server's
     * (Camel set it on the request's message and at every internal send). Nor does Camel make exchange events for
     * the tracer to read.
     */
    @Test
    void aRequestNotSampledIsDecidedOnceAndOnlyTheModelServerIsSentItsContext() throws Exception {
        Map<String, String> properties = samplingNone();
        properties.put("otel.traces.sampler", CountedSampler.NAME);
        properties.put("otel.propagators", CountedPropagator.NAME);
        try (ServiceInstance sampling = ServiceInstance.start(properties, http)) {
            // a caller's trace, not sampled: the model call's exchange must join it, not begin a trace of its own
            String callerTrace = "6cf92f3577b34da6a3ce929d0e0e4738";
            String[] traceparent = askedNotSampled(sampling, "00-" + callerTrace + "-10f067aa0ba902b8-00");
            assertEquals(callerTrace, traceparent[1], "the model server is sent the request's trace");
            assertEquals(1, CountedSampler.asked(traceparent[1]));
            assertEquals(1, CountedPropagator.injected(traceparent[1]), "set on the model server's call only");
            assertFalse(sampling.context().getCamelContextExtension().isEventNotificationApplicable(),
                    "Camel makes no event of the exchanges and sends of a request");
        }
    }

    /**
     * A sampled request's model call joins its trace with the propagators configured (Camel's tracer reads a new
     * exchange's parent with them), not W3C's alone: here a propagator with another header.
     */
    @Test
    void aSampledModelCallJoinsItsTraceWithTheConfiguredPropagators() throws Exception {
        Map<String, String> properties = modelProperties();
        properties.put("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + collector.getAddress().getPort());
        properties.put("otel.propagators", RenamedPropagator.NAME);
        try (ServiceInstance renamed = ServiceInstance.start(properties, http)) {
            model.reset();
            String callerTrace = "7cf92f3577b34da6a3ce929d0e0e4739";
            assertEquals(200, asked(renamed, ServiceTest.ACME_KEY,
                    RenamedPropagator.HEADER, "00-" + callerTrace + "-10f067aa0ba902b8-01").statusCode());
            String[] sent = model.requests.get(0).headers().get(RenamedPropagator.HEADER).split("-");
            assertEquals(callerTrace, sent[1], "the model server is sent the caller's trace");
            assertEquals("01", sent[3], "sampled");
        }
    }

    /** The model's settings with traces exported to the test's collector and no new request sampled. */
    private Map<String, String> samplingNone() {
        Map<String, String> properties = modelProperties();
        properties.put("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + collector.getAddress().getPort());
        properties.put("otel.traces.sampler.arg", "0");
        return properties;
    }

    /** Asks {@code service} one question; the trace context the model server was sent, split, flags {@code 00}. */
    private String[] askedNotSampled(ServiceInstance service) throws Exception {
        model.reset();
        assertEquals(200, service.message(http, "acme", ServiceTest.ACME_KEY,
                ServiceTest.question("How do I change the port?")).statusCode());
        return sentNotSampled();
    }

    /** {@link #askedNotSampled(ServiceInstance)}, the request carrying the caller's {@code traceparent}. */
    private String[] askedNotSampled(ServiceInstance service, String traceparent) throws Exception {
        model.reset();
        assertEquals(200, asked(service, ServiceTest.ACME_KEY, "traceparent", traceparent).statusCode());
        return sentNotSampled();
    }

    /** Asks {@code service} one question with {@code key} and the caller's {@code headers} (name, value…). */
    private HttpResponse<String> asked(ServiceInstance service, String key, String... headers) throws Exception {
        return http.send(HttpRequest.newBuilder(service.uri("/v1/assistant/acme/message"))
                .timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + key).headers(headers)
                .POST(HttpRequest.BodyPublishers.ofString(ServiceTest.question("How do I change the port?")))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private String[] sentNotSampled() {
        String[] traceparent = model.requests.get(0).headers().get("traceparent").split("-");
        assertEquals("00", traceparent[3], "not sampled");
        return traceparent;
    }

    @Test
    void otlpOverGrpcExportsTheSameSpans() throws Exception {
        List<Span> received = new CopyOnWriteArrayList<>();
        Vertx vertx = Vertx.vertx();
        try {
            // a gRPC collector: HTTP/2 without TLS, each message behind a 5-byte frame header, the status in trailers
            io.vertx.core.http.HttpServer grpc = vertx.createHttpServer().requestHandler(request -> request.body()
                    .onSuccess(body -> {
                        try {
                            ExportTraceServiceRequest.parseFrom(body.getBytes(5, body.length())).getResourceSpansList()
                                    .forEach(r -> r.getScopeSpansList().forEach(s -> received.addAll(s.getSpansList())));
                        } catch (InvalidProtocolBufferException e) {
                            throw new IllegalStateException(e);
                        }
                        request.response().putHeader("content-type", "application/grpc")
                                .putTrailer("grpc-status", "0").end(Buffer.buffer(new byte[5]));
                    })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            Map<String, String> properties = modelProperties();
            properties.put("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + grpc.actualPort());
            properties.put("otel.exporter.otlp.protocol", "grpc");
            properties.put("otel.traces.sampler", "always_on");
            properties.put("otel.bsp.schedule.delay", "50");
            try (ServiceInstance traced = ServiceInstance.start(properties, http)) {
                model.reset();
                assertEquals(200, traced.message(http, "acme", ServiceTest.ACME_KEY,
                        ServiceTest.question("How do I change the port?")).statusCode());
                long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
                while (names(received).stream().noneMatch(MODEL_CALL::equals)) {
                    assertTrue(System.nanoTime() < deadline, "no model-call span over gRPC: " + names(received));
                    Thread.sleep(20);
                }
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void withoutOtelSettingsNothingIsTraced() throws Exception {
        try (OpenAiStub untracedModel = new OpenAiStub()) {
            Map<String, String> properties = modelProperties();
            properties.put("assistant.model.base-url", untracedModel.baseUrl());
            try (ServiceInstance untraced = ServiceInstance.start(properties, http)) {
                assertNull(untraced.context().hasService(OpenTelemetryTracer.class), "no Camel tracer");
                assertEquals(200, untraced.message(http, "acme", ServiceTest.ACME_KEY,
                        ServiceTest.question("How do I change the port?")).statusCode());
                assertFalse(untracedModel.requests.get(0).headers().contains("traceparent"));
            }
        }
    }

    private Span awaitSpan(Predicate<Span> which) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            for (Span span : exported) {
                if (which.test(span)) {
                    return span;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("No such span among " + names(exported));
    }

    /** A span's children, in the order they began. */
    private static List<Span> children(Span parent, List<Span> trace) {
        return trace.stream().filter(s -> hex(s.getParentSpanId()).equals(hex(parent.getSpanId())))
                .sorted(Comparator.comparingLong(Span::getStartTimeUnixNano)).toList();
    }

    private static boolean descends(Span span, Span ancestor, List<Span> trace) {
        for (Span at = span; at != null; ) {
            String parent = hex(at.getParentSpanId());
            if (parent.equals(hex(ancestor.getSpanId()))) {
                return true;
            }
            at = trace.stream().filter(s -> hex(s.getSpanId()).equals(parent)).findFirst().orElse(null);
        }
        return false;
    }

    private static AnyValue attribute(Span span, String key) {
        return span.getAttributesList().stream().filter(a -> a.getKey().equals(key)).map(KeyValue::getValue)
                .findFirst().orElseThrow(() -> new AssertionError(key + " missing on " + span.getName() + " "
                        + span.getAttributesList()));
    }

    private static void assertNoAttribute(Span span, String key) {
        assertTrue(span.getAttributesList().stream().noneMatch(a -> a.getKey().equals(key)), key + " on " + span);
    }

    private static String resourceAttribute(Resource resource, String key) {
        return resource.getAttributesList().stream().filter(a -> a.getKey().equals(key))
                .map(a -> a.getValue().getStringValue()).findFirst()
                .orElseThrow(() -> new AssertionError(key + " missing on " + resource));
    }

    private static String hex(com.google.protobuf.ByteString bytes) {
        return HexFormat.of().formatHex(bytes.toByteArray());
    }

    private static List<String> names(List<Span> spans) {
        return spans.stream().map(Span::getName).toList();
    }
}
