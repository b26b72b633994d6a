package dev.docsassistant.web;

import java.util.Map;
import java.util.Set;

import io.opentelemetry.api.trace.SpanContext;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.apache.camel.CamelContext;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpRouter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers, in the API's problem+json format, the requests no route gets to see: Vert.x refuses them itself, with
 * a plain-text body by default. A path no route serves (404), a method the path does not take (405, with
 * {@code Allow}), a body over {@code camel.server.max-body-size} on a route that lets Vert.x's body handler read it
 * (413, from its {@code Content-Length} before reading it, or as soon as a chunked body passes the limit; the API's
 * routes read their bodies themselves, after the key), a failure that
 * escaped a route (500), and any request while the service shuts down (503, which platform-http sends empty). Each is logged like any other request. Installed on the HTTP server's router by the
 * http-server route at start-up (http-server.yaml).
 */
public class HttpErrors {

    private static final Logger LOG = LoggerFactory.getLogger(HttpErrors.class);

    private final long maxBodyBytes;

    public HttpErrors(long maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    public void install(CamelContext context) {
        VertxPlatformHttpRouter router = context.getRegistry().findByType(VertxPlatformHttpRouter.class).stream()
                .filter(VertxPlatformHttpRouter::isMainServer).findFirst()
                .orElseThrow(() -> new IllegalStateException("No platform-http (Vert.x) server to install on"));
        // A service shutting down (SIGTERM) suspends its consumers, which then answer 503 with no body: in front of
        // them, the same refusal with its problem, and Connection: close so that clients reconnect elsewhere.
        router.route().order(-2).handler(ctx -> {
            if (context.getStatus().isStopping() || context.getStatus().isStopped()) {
                ctx.response().putHeader("Connection", "close");
                answer(ctx, 503, "shutting_down", "The service is restarting; please try again.");
            } else {
                ctx.next();
            }
        });
        // Camel mounts its routes on this sub-router, whose Router.errorHandler Vert.x never consults: here a
        // last-resort route answers what no route took, and a failure handler what a route's handlers failed (413).
        router.route().last()
                .handler(ctx -> unmatched(context, ctx))
                .failureHandler(ctx -> failed(ctx, ctx.statusCode()));
        // The root router (the server's request handler) refuses some requests before any sub-router: a path that
        // does not decode (400).
        if (router.getServer().getServer().requestHandler() instanceof Router root) {
            for (int status : new int[]{400, 404, 405, 413, 500}) {
                root.errorHandler(status, ctx -> failed(ctx, status)); // ctx.statusCode() is not set there
            }
        }
    }

    /** No route took the request: 405 if the path exists for other methods, else 404. */
    private static void unmatched(CamelContext context, RoutingContext ctx) {
        Set<String> allowed = PlatformEndpoints.allowedMethods(context, ctx.normalizedPath());
        if (allowed.isEmpty()) {
            notFound(ctx);
            return;
        }
        ctx.response().putHeader("Allow", String.join(", ", allowed));
        answer(ctx, 405, "method_not_allowed", "This endpoint answers " + String.join(", ", allowed)
                + ", not " + ctx.request().method().name());
    }

    private void failed(RoutingContext ctx, int status) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return; // answered already (a 413 whose client kept sending), or the client left: no one to tell
        }
        if (status == 404) {
            notFound(ctx);
        } else if (status == 413) {
            answer(ctx, 413, "body_too_large", "The request body must be at most " + maxBodyBytes + " bytes");
        } else if (status >= 400 && status < 500) {
            answer(ctx, status, "invalid_request", "The request is malformed");
        } else {
            LOG.error("Request failed outside any route", ctx.failure());
            answer(ctx, 500, "internal_error", "The assistant failed to answer; please try again.");
        }
    }

    private static void notFound(RoutingContext ctx) {
        EndpointNotFoundException missing = new EndpointNotFoundException();
        answer(ctx, 404, missing.code(), missing.getMessage());
    }

    private static void answer(RoutingContext ctx, int status, String code, String detail) {
        long started = System.nanoTime();
        var response = ctx.response();
        if (response.headWritten()) {
            response.reset(); // the route already began its own answer: cut it off rather than corrupt it
            return;
        }
        String requestId = RequestLog.requestId(ctx.request());
        response.setStatusCode(status)
                .putHeader("Content-Type", "application/problem+json")
                .putHeader("X-Request-Id", requestId);
        if (status == 413) {
            response.putHeader("Connection", "close"); // the rest of the body is not read
        }
        response.end(ProblemResponse.body(status, code, detail, null, requestId)).onComplete(done -> {
            Map<String, Object> line = RequestLog.line(requestId, ctx.request(), response, started);
            line.put("code", code);
            RequestLog.write(line, SpanContext.getInvalid());
        });
    }
}
