package dev.docsassistant.web;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * CORS for the widget, which runs on the docs site's origin rather than ours. Every response names the allowed
 * origin and exposes the headers the widget reads; {@link #preflight} answers the browser's OPTIONS request.
 */
public class Cors implements Processor {

    static final String EXPOSED = "X-Thread-Id, X-Thread-Key, Retry-After, "
            + "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id";

    private final int maxAgeSeconds;

    public Cors(int maxAgeSeconds) {
        this.maxAgeSeconds = maxAgeSeconds;
    }

    @Override
    public void process(Exchange exchange) {
        String origin = exchange.getMessage().getHeader("Origin", String.class);
        if (origin == null) {
            return;
        }
        ResponseHeaders.set(exchange, "Access-Control-Allow-Origin", origin);
        ResponseHeaders.set(exchange, "Access-Control-Expose-Headers", EXPOSED);
        ResponseHeaders.set(exchange, "Vary", "Origin");
    }

    /** Answers a preflight: the route then replies 204 with exactly these headers. */
    public void preflight(Exchange exchange) {
        String origin = exchange.getMessage().getHeader("Origin", String.class);
        exchange.getMessage().removeHeaders("*");
        exchange.getMessage().setBody(null);
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 204);
        exchange.getMessage().setHeader("Vary", "Origin");
        if (origin == null) {
            return;
        }
        exchange.getMessage().setHeader("Access-Control-Allow-Origin", origin);
        exchange.getMessage().setHeader("Access-Control-Allow-Methods", "POST, OPTIONS");
        exchange.getMessage().setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-Id");
        exchange.getMessage().setHeader("Access-Control-Max-Age", maxAgeSeconds);
        exchange.getMessage().setHeader("Access-Control-Expose-Headers", EXPOSED);
    }
}
