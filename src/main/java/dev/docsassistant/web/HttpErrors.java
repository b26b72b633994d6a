package dev.docsassistant.web;

import java.util.Map;
import java.util.Set;

import io.vertx.ext.web.RoutingContext;
import org.apache.camel.CamelContext;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpRouter;

/**
 * Answers, in the API's problem+json format, the requests no route gets to see: Vert.x refuses them itself, with
 * a plain-text body by default. A path no route serves (404), a method the path does not take (405, with
 * {@code Allow}), and a body over {@code camel.server.max-body-size} (413: Vert.x's body handler refuses it from its
 * {@code Content-Length} before reading it, or as soon as a chunked body passes the limit). Each is logged like any
 * other request. Installed on the HTTP server's router by the http-errors route at start-up.
 */
public class HttpErrors {

    private final long maxBodyBytes;

    public HttpErrors(long maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    public void install(CamelContext context) {
        VertxPlatformHttpRouter router = context.getRegistry().findByType(VertxPlatformHttpRouter.class).stream()
                .filter(VertxPlatformHttpRouter::isMainServer).findFirst()
                .orElseThrow(() -> new IllegalStateException("No platform-http (Vert.x) server to install on"));
        router.errorHandler(404, ctx -> notFound(ctx));
        router.errorHandler(405, ctx -> {
            Set<String> allowed = PlatformEndpoints.allowedMethods(context, ctx.request().path());
            if (allowed.isEmpty()) {
                notFound(ctx); // only a catch-all preflight route matched the path
                return;
            }
            ctx.response().putHeader("Allow", String.join(", ", allowed));
            answer(ctx, 405, "method_not_allowed", "This endpoint answers " + String.join(", ", allowed)
                    + ", not " + ctx.request().method().name());
        });
        router.errorHandler(413, ctx -> answer(ctx, 413, "body_too_large",
                "The request body must be at most " + maxBodyBytes + " bytes"));
        router.errorHandler(400, ctx -> answer(ctx, 400, "invalid_request", "The request is malformed"));
        router.errorHandler(500, ctx -> answer(ctx, 500, "internal_error",
                "The assistant failed to answer; please try again."));
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
            RequestLog.write(line);
        });
    }
}
