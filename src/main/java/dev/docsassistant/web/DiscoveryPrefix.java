package dev.docsassistant.web;

import org.apache.camel.CamelContext;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpRouter;

/**
 * Mintlify's documented address of its public API is {@code https://api.mintlify.com/discovery/v1/…}: a widget that
 * changes only the host calls {@code /discovery/v1/assistant/{domain}/message}. Every public endpoint (the message
 * endpoints of v1 and v2, feedback, search, page; not the admin endpoints, which Mintlify does not serve there) is
 * answered under {@code /discovery} too, by routing the request again without the prefix before any route sees it:
 * one set of routes, so the prefixed path is answered exactly like the plain one (its admission, limits, errors,
 * preflight and request log included). Installed on the HTTP server's router by the http-server route at start-up.
 */
public final class DiscoveryPrefix {

    static final String PREFIX = "/discovery";
    /** The public endpoints' paths, under the prefix (a path of these kinds that no route serves still gets 404). */
    private static final String PUBLIC_PATHS = PREFIX + "/(v1/assistant|v2/assistant|v1/search|v1/page)(/.*)?";

    private DiscoveryPrefix() {
    }

    public static void install(CamelContext context) {
        VertxPlatformHttpRouter router = context.getRegistry().findByType(VertxPlatformHttpRouter.class).stream()
                .filter(VertxPlatformHttpRouter::isMainServer).findFirst()
                .orElseThrow(() -> new IllegalStateException("No platform-http (Vert.x) server to install on"));
        // before the body prefetch (RequireJsonBody, order -1) and the routes: nothing has read the request yet
        router.routeWithRegex(PUBLIC_PATHS).order(-2).handler(ctx -> ctx.reroute(ctx.request().method(),
                ctx.normalizedPath().substring(PREFIX.length())));
    }
}
