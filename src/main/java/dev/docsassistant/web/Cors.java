package dev.docsassistant.web;

import java.util.Objects;

import dev.docsassistant.config.AllowedOrigins;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.ground.ResponseHeaders;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.vertx.HttpMessage;

/**
 * CORS for the widget, which runs on the docs site's origin rather than ours. A domain's {@code allowedOrigins}
 * (tenants file; empty allows any) decide which origins may call it: a request from any other origin is refused with
 * 403 before any other step runs, and its response carries no {@code Access-Control-Allow-Origin}, so the page
 * cannot read it either. Allowed responses name the origin and expose the headers the widget reads;
 * {@link #preflight} answers the browser's OPTIONS request for any route, finding the domain from the route's path.
 */
public class Cors implements Processor {

    static final String EXPOSED = "X-Thread-Id, X-Thread-Key, Retry-After, "
            + "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-RateLimit-Scope, X-Request-Id, "
            + "Deprecation, Sunset, Link";

    private final Tenants tenants;
    private final int maxAgeSeconds;

    public Cors(Tenants tenants, int maxAgeSeconds) {
        this.tenants = tenants;
        this.maxAgeSeconds = maxAgeSeconds;
    }

    @Override
    public void process(Exchange exchange) {
        String origin = exchange.getMessage().getHeader("Origin", String.class);
        ResponseHeaders.set(exchange, "Vary", "Origin");
        if (origin == null) {
            return; // not a browser's cross-origin request
        }
        requireAllowed(origin, exchange.getMessage().getHeader("domain", String.class));
        ResponseHeaders.set(exchange, "Access-Control-Allow-Origin", origin);
        ResponseHeaders.set(exchange, "Access-Control-Expose-Headers", EXPOSED);
    }

    /**
     * cors.yaml's step ({@code ref: corsPreflight}, made by step-beans.yaml from this factory): {@link #answerPreflight},
     * without a reflective call per request.
     */
    public static Processor preflight(Cors cors) {
        return cors::answerPreflight;
    }

    /** Answers a preflight: the route then replies 204 with exactly these headers, or 403 for another origin. */
    private void answerPreflight(Exchange exchange) {
        Message message = exchange.getMessage();
        String origin = message.getHeader("Origin", String.class);
        String path = exchange.getMessage(HttpMessage.class).getRequest().path();
        var allowed = PlatformEndpoints.allowedMethods(exchange.getContext(), path);
        if (allowed.isEmpty()) {
            throw new EndpointNotFoundException();
        }
        if (origin != null) {
            requireAllowed(origin, domainOf(exchange, path));
        }
        message.removeHeaders("*");
        message.setBody(null);
        ResponseHeaders.of(exchange).forEach(message::setHeader);
        message.setHeader(Exchange.HTTP_RESPONSE_CODE, 204);
        message.setHeader("Vary", "Origin");
        if (origin == null) {
            return;
        }
        message.setHeader("Access-Control-Allow-Origin", origin);
        message.setHeader("Access-Control-Allow-Methods", String.join(", ", allowed));
        message.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-Id");
        message.setHeader("Access-Control-Max-Age", maxAgeSeconds);
        message.setHeader("Access-Control-Expose-Headers", EXPOSED);
    }

    private void requireAllowed(String origin, String domain) {
        Tenant tenant = Tenants.isDomainId(domain) ? tenants.tenant(domain) : null;
        // an unknown domain has no origin list; the request fails later with its own error, readable by the page
        AllowedOrigins allowed = tenant == null ? AllowedOrigins.ANY : tenant.allowedOrigins();
        if (!allowed.allows(origin)) {
            throw new OriginNotAllowedException(domain);
        }
    }

    /** The {@code {domain}} of the route the preflight is for (a POST route declared on the same path). */
    private static String domainOf(Exchange exchange, String path) {
        String declared = exchange.getMessage().getHeader("domain", String.class);
        if (declared != null) {
            return declared;
        }
        return PlatformEndpoints.matching(exchange.getContext(), path).stream()
                .map(match -> match.parameters().get("domain"))
                .filter(Objects::nonNull)
                .findFirst().orElse(null);
    }
}
