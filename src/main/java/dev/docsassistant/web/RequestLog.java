package dev.docsassistant.web;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.ground.ClientAddress;
import dev.docsassistant.ground.Json;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.Secrets;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.model.StreamedAnswer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import net.logstash.logback.marker.Markers;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.Route;
import org.apache.camel.component.platform.http.vertx.HttpMessage;
import org.apache.camel.spi.SynchronizationRouteAware;
import org.apache.camel.support.SynchronizationAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The first step of every route: names the request (its {@code X-Request-Id}, or a new one, returned either way),
 * finds its client's address ({@link ClientAddress}), and, once the response has been sent, writes one JSON line to
 * the {@code dev.docsassistant.access} logger: request id, route, domain, organization, status, latency, bytes,
 * tokens and the rate-limit decision. Only values the service chose or validated go in, never a header, a key or
 * a body, so the line cannot carry a secret.
 * <p>
 * While the route serves the request its id is in the logging MDC ({@value #MDC_REQUEST_ID}), so every line logged
 * for it names it (and logback.xml adds the trace and span current where a line is logged); the access line, logged
 * after the request, carries the request's trace and span ({@link #MDC_TRACE_ID}, {@link #MDC_SPAN_ID}); with
 * {@code ASSISTANT_LOG_FORMAT=json} the access line's values are fields of the log object (logback.xml).
 */
public class RequestLog implements Processor {

    /** The MDC keys of the request being served. */
    public static final String MDC_REQUEST_ID = "requestId";

    private static final Logger ACCESS = LoggerFactory.getLogger("dev.docsassistant.access");
    /** The trace's and span's keys: OpenTelemetry's, or those the log format's file names (ECS's, logback-ecs.xml). */
    static final String MDC_TRACE_ID = logProperty("traceIdKey", "trace_id");
    static final String MDC_SPAN_ID = logProperty("spanIdKey", "span_id");
    private static final ObjectMapper JSON = Json.mapper();
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private final ClientAddress clients;

    public RequestLog(ClientAddress clients) {
        this.clients = clients;
    }

    @Override
    public void process(Exchange exchange) {
        HttpMessage http = exchange.getMessage(HttpMessage.class);
        HttpServerRequest request = http.getRequest();
        HttpServerResponse response = http.getResponse();
        long started = System.nanoTime();
        String requestId = requestId(request);
        exchange.setProperty(StepContract.REQUEST_ID, requestId);
        ResponseHeaders.set(exchange, "X-Request-Id", requestId);
        exchange.setProperty(StepContract.CLIENT_IP, clients.resolve(request));
        String domain = exchange.getMessage().getHeader("domain", String.class);
        SpanContext span = Span.current().getSpanContext(); // the request's when tracing is on (invalid when off)
        MDC.put(MDC_REQUEST_ID, requestId);

        exchange.getExchangeExtension().addOnCompletion(new Completion() {
            @Override
            public void onDone(Exchange done) {
                Map<String, Object> line = line(requestId, request, response, started);
                line.put("route", done.getFromRouteId());
                Tenant tenant = done.getProperty(StepContract.TENANT, Tenant.class);
                line.put("domain", tenant != null ? tenant.domainId() : Tenants.isDomainId(domain) ? domain : null);
                line.put("org", tenant != null ? tenant.organizationId() : null);
                line.put("client", done.getProperty(StepContract.CLIENT_IP));
                line.put("rateLimit", done.getProperty(StepContract.RATE_LIMIT));
                line.put("code", done.getProperty(StepContract.PROBLEM_CODE));
                StreamedAnswer answer = done.getProperty(StepContract.ANSWER, StreamedAnswer.class);
                if (answer != null) {
                    line.put("promptTokens", answer.usage().promptTokens());
                    line.put("completionTokens", answer.usage().completionTokens());
                    line.put("complete", answer.complete());
                }
                write(line, span);
            }
        });
    }

    /**
     * The request's MDC is set on the thread that runs the route and cleared when the route ends there (the next
     * request on that thread sets its own). The access line is logged once the response is written (platform-http
     * completes the unit of work after writing it), on the event loop.
     */
    private abstract static class Completion extends SynchronizationAdapter implements SynchronizationRouteAware {

        @Override
        public void onBeforeRoute(Route route, Exchange exchange) {
        }

        @Override
        public void onAfterRoute(Route route, Exchange exchange) {
            if (route.getRouteId().equals(exchange.getFromRouteId())) {
                clearMdc();
            }
        }
    }

    private static String logProperty(String name, String otherwise) {
        String value = LoggerFactory.getILoggerFactory() instanceof LoggerContext logback ? logback.getProperty(name)
                : null;
        return value != null ? value : otherwise;
    }

    private static void clearMdc() {
        MDC.remove(MDC_REQUEST_ID);
        MDC.remove(MDC_TRACE_ID);
        MDC.remove(MDC_SPAN_ID);
    }

    /** The request's own {@code X-Request-Id} when it is a plain token, else a new one. */
    static String requestId(HttpServerRequest request) {
        String given = request.getHeader("X-Request-Id");
        return given != null && SAFE_ID.matcher(given).matches() ? given : "req_" + Secrets.id(12);
    }

    /** The fields every line has, also for requests refused before any route ran ({@link HttpErrors}). */
    static Map<String, Object> line(String requestId, HttpServerRequest request, HttpServerResponse response,
            long startedNanos) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("requestId", requestId);
        line.put("method", request.method().name());
        line.put("status", response.getStatusCode());
        line.put("latencyMs", (System.nanoTime() - startedNanos) / 1_000_000);
        line.put("bytesIn", request.bytesRead());
        line.put("bytesOut", response.bytesWritten());
        return line;
    }

    /**
     * Logs the line: as its JSON for text logs, as fields of the log object for JSON logs (the request id as the MDC
     * key every line of the request has). Ends the request's MDC: the line is its last.
     */
    static void write(Map<String, Object> line, SpanContext span) {
        line.values().removeIf(Objects::isNull);
        Map<String, Object> fields = new LinkedHashMap<>(line);
        MDC.put(MDC_REQUEST_ID, (String) fields.remove("requestId"));
        if (span.isValid()) {
            MDC.put(MDC_TRACE_ID, span.getTraceId());
            MDC.put(MDC_SPAN_ID, span.getSpanId());
        }
        try {
            ACCESS.info(Markers.appendEntries(fields), "{}", new JsonText(line));
        } finally {
            clearMdc();
        }
    }

    /** Written as JSON only when a text log formats the message. */
    private record JsonText(Map<String, Object> line) {
        @Override
        public String toString() {
            try {
                return JSON.writeValueAsString(line);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("Plain values always serialize", e);
            }
        }
    }
}
