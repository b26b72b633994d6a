package dev.docsassistant.ground;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.camel.Exchange;
import org.apache.camel.component.platform.http.vertx.HttpMessage;

/**
 * Headers a step wants on the response, kept apart from the Camel message headers (which hold the request's own
 * headers, including its credentials). Both the stream and the error response write exactly these.
 */
public final class ResponseHeaders {

    private ResponseHeaders() {
    }

    public static void set(Exchange exchange, String name, Object value) {
        of(exchange).put(name, String.valueOf(value));
    }

    /**
     * Cache-Control goes straight onto the Vert.x response of a plain (not streamed) reply: Camel's HTTP header filter
     * drops a Cache-Control header set on the message.
     */
    public static void cacheControl(Exchange exchange, String value) {
        exchange.getMessage(HttpMessage.class).getResponse().putHeader("Cache-Control", value);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, String> of(Exchange exchange) {
        Map<String, String> headers = exchange.getProperty(StepContract.RESPONSE_HEADERS, Map.class);
        if (headers == null) {
            headers = new LinkedHashMap<>();
            exchange.setProperty(StepContract.RESPONSE_HEADERS, headers);
        }
        return headers;
    }
}
