package dev.docsassistant.custom;

import java.util.stream.Collectors;

import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Route;
import org.apache.camel.ServiceStatus;
import org.apache.camel.support.ExpressionAdapter;

/**
 * The pipeline's own-steps slot: every route that reads from {@code direct:assistant-step-<name>} runs there, in
 * name order, on the request's exchange. A step is a route file in {@code assistant.routes-dir}, so adding, editing
 * or reloading one changes behaviour without Java and without touching (or stopping) the pipeline route that holds
 * the open streams. The routing slip's expression ({@code ref: customSteps}), evaluated per request without
 * reflection.
 */
public class CustomSteps extends ExpressionAdapter {

    static final String PREFIX = "direct://assistant-step-";

    @Override
    public Object evaluate(Exchange exchange) {
        return slip(exchange.getContext());
    }

    /** The routing slip: the steps' endpoints in name order, comma-separated; empty when there is none. */
    private static String slip(CamelContext context) {
        return context.getRoutes().stream()
                .filter(route -> route.getEndpoint().getEndpointUri().startsWith(PREFIX))
                .filter(route -> context.getRouteController().getRouteStatus(route.getRouteId())
                        != ServiceStatus.Stopped)
                .map(Route::getEndpoint)
                .map(endpoint -> endpoint.getEndpointUri())
                .sorted()
                .collect(Collectors.joining(","));
    }
}
