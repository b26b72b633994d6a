package dev.docsassistant.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.ground.ApiException;
import dev.docsassistant.ground.Json;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.request.JsonErrors;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.vertx.HttpMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renders the caught exception as an RFC 9457 {@code application/problem+json} body for the status the error
 * routeConfiguration chose. The body is also readable as plain text, which is what {@code useChat} shows. Request
 * headers are dropped so none is echoed back; only the steps' {@link ResponseHeaders} are sent.
 */
public class ProblemResponse implements Processor {

    private static final Logger LOG = LoggerFactory.getLogger(ProblemResponse.class);
    private static final ObjectMapper JSON = Json.mapper();
    /** How long, and how many bytes of, an unread body is dropped before a refused request's connection closes. */
    private static final long LINGER_MILLIS = 2_000;
    private static final long LINGER_BYTES = 16L << 20;

    @Override
    public void process(Exchange exchange) throws Exception {
        Message message = exchange.getMessage();
        int status = message.getHeader(Exchange.HTTP_RESPONSE_CODE, 500, Integer.class);
        Throwable error = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        if (error instanceof JsonProcessingException parseError) {
            error = JsonErrors.describe(parseError);
        }
        String requestId = exchange.getProperty(StepContract.REQUEST_ID, String.class);
        String body;
        if (error instanceof ApiException refused) {
            body = body(status, refused.code(), refused.getMessage(), refused.field(), requestId);
            exchange.setProperty(StepContract.PROBLEM_CODE, refused.code());
            if (refused.retryAfterSeconds() != null) {
                ResponseHeaders.set(exchange, "Retry-After", refused.retryAfterSeconds());
            }
        } else {
            LOG.error("Unexpected failure on request {} to {}", requestId, exchange.getFromRouteId(), error);
            body = body(status, "internal_error", "The assistant failed to answer; please try again.", null, requestId);
            exchange.setProperty(StepContract.PROBLEM_CODE, "internal_error");
        }
        message.setBody(body);
        closeIfBodyUnread(exchange);
        JsonResponse.headers(exchange, status, "application/problem+json");
    }

    /**
     * A request refused before its body was read (the body is read only once the key and quotas passed) leaves the
     * rest of the body on the connection: an HTTP/1.x connection is closed after the answer rather than kept for a
     * next request. An HTTP/2 connection carries other streams, so only this one ends (Vert.x resets it).
     */
    private static void closeIfBodyUnread(Exchange exchange) {
        HttpMessage http = exchange.getMessage(HttpMessage.class);
        if (http == null) {
            return;
        }
        HttpServerRequest request = http.getRequest();
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        boolean hasBody = request.headers().contains(HttpHeaders.TRANSFER_ENCODING)
                || (length != null && !length.trim().equals("0"));
        if (hasBody && !request.isEnded() && request.version() != HttpVersion.HTTP_2) {
            // on the response itself: platform-http does not copy a Connection header from the message
            http.getResponse().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE)
                    .endHandler(ended -> lingerThenClose(request));
        }
    }

    /**
     * Reads and drops what is left of the body, for at most {@link #LINGER_MILLIS} and {@link #LINGER_BYTES}, then
     * closes (on the event loop, after the answer). Closed with bytes unread, the kernel resets the connection, and
     * a reset throws away the answer on its way to a client still sending: most clients send the whole body before
     * they read. Dropping costs a copy per byte; the bounds keep a client that never stops from holding the
     * connection.
     */
    private static void lingerThenClose(HttpServerRequest request) {
        HttpConnection connection = request.connection();
        Context context = Vertx.currentContext();
        if (request.isEnded() || context == null) {
            connection.close();
            return;
        }
        long timer = context.owner().setTimer(LINGER_MILLIS, expired -> connection.close());
        connection.closeHandler(closed -> context.owner().cancelTimer(timer));
        AtomicLong dropped = new AtomicLong();
        request.handler(chunk -> {
            if (dropped.addAndGet(chunk.length()) > LINGER_BYTES) {
                connection.close();
            }
        }).endHandler(end -> connection.close()).exceptionHandler(failed -> connection.close());
        request.resume();
    }

    /**
     * The problem document; {@code message} (the discovery API's) and {@code error} with {@code details[].message}
     * (the analytics API's) repeat {@code detail} for Mintlify's clients.
     */
    static String body(int status, String code, String detail, String field, String requestId) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "about:blank");
        problem.put("title", HttpResponseStatus.valueOf(status).reasonPhrase());
        problem.put("status", status);
        problem.put("detail", detail);
        problem.put("code", code);
        if (field != null) {
            problem.put("field", field);
        }
        if (requestId != null) {
            problem.put("requestId", requestId);
        }
        problem.put("message", detail);
        problem.put("error", detail);
        problem.put("details", List.of(Map.of("message", detail)));
        try {
            return JSON.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A map of strings always serializes", e);
        }
    }
}
