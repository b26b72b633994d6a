package dev.docsassistant.observe;

import dev.docsassistant.ground.ClientAddress;
import dev.docsassistant.ground.StepContract;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.component.platform.http.PlatformHttpEndpoint;
import org.apache.camel.component.platform.http.vertx.HttpMessage;
import org.apache.camel.telemetry.Span;
import org.apache.camel.telemetry.TagConstants;
import org.apache.camel.telemetry.decorators.PlatformHttpSpanDecorator;

/**
 * The span of a request the service serves, by OpenTelemetry's HTTP server conventions: named {@code {method}
 * {route}} ({@code POST /v1/assistant/{domain}/message}), with {@code http.request.method}, {@code http.route}, the
 * path as requested ({@code url.path}), {@code url.scheme}, {@code client.address} (the address the request log
 * resolved, trusted proxies considered) and the response status. Camel's own decorator for {@code platform-http}
 * names it by the method alone and tags it with the endpoint's URI under older names; this one takes its place
 * (Camel's decorator manager prefers a subclass registered by {@code ServiceLoader}). Its kind and the status's type
 * are set when it is exported ({@link Conventions}): Camel's span API has neither.
 */
public class ServerSpan extends PlatformHttpSpanDecorator {

    static final String METHOD = "http.request.method";
    static final String ROUTE = "http.route";
    static final String PATH = "url.path";
    static final String SCHEME = "url.scheme";
    static final String CLIENT = "client.address";
    static final String ERROR_TYPE = "error.type";

    @Override
    public String getOperationName(Exchange exchange, Endpoint endpoint) {
        return getHttpMethod(exchange, endpoint) + " " + route(endpoint);
    }

    @Override
    public void beforeTracingEvent(Span span, Exchange exchange, Endpoint endpoint) {
        span.setComponent("camel-" + getComponent());
        span.setTag(METHOD, getHttpMethod(exchange, endpoint));
        span.setTag(ROUTE, route(endpoint));
        if (exchange.getIn() instanceof HttpMessage message) {
            HttpServerRequest request = message.getRequest();
            span.setTag(PATH, request.path());
            span.setTag(SCHEME, request.scheme());
        }
    }

    @Override
    public void afterTracingEvent(Span span, Exchange exchange) {
        super.afterTracingEvent(span, exchange); // the status the route set, and the failure if any
        String client = exchange.getProperty(StepContract.CLIENT_IP, String.class); // as the request log resolved it
        HttpMessage message = exchange.getMessage(HttpMessage.class);
        if (message != null) {
            HttpServerResponse response = message.getResponse();
            // a stream's status is sent before the route ends, without the header
            Integer status = exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE, Integer.class);
            if (response.headWritten() && status == null) {
                status = response.getStatusCode();
                span.setTag(TagConstants.HTTP_STATUS, Integer.toString(status));
            }
            // OpenTelemetry's HTTP conventions for a SERVER span: a 5xx is its error (status ERROR, error.type the
            // status code); a 4xx is the client's, and leaves it unset
            if (status != null && status >= 500) {
                span.setError(true);
                span.setTag(ERROR_TYPE, Integer.toString(status));
            }
            if (client == null) {
                client = ClientAddress.of(exchange);
            }
        }
        if (client != null) {
            span.setTag(CLIENT, client);
        }
    }

    /** The route's path template as written in the route ({@code /v1/assistant/{domain}/message}). */
    private static String route(Endpoint endpoint) {
        return endpoint instanceof PlatformHttpEndpoint http ? http.getPath() : stripSchemeAndOptions(endpoint);
    }
}
