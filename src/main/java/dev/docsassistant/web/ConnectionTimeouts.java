package dev.docsassistant.web;

import java.time.Duration;

import io.vertx.core.impl.VertxInternal;
import org.apache.camel.CamelContext;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpRouter;

/**
 * How long a connection may sit idle, and how long a client may take to send one whole request (its headers and
 * body), on every HTTP server of the service (the API's and the management port's). Vert.x has neither a header
 * nor a whole-request timeout, and platform-http creates its servers with default options, so the limits are
 * enforced per connection by {@link ConnectionClock}, which {@link TimedTransport} puts in front of every accepted
 * connection. The same handler keeps HTTP/2 cleartext off unless allowed (its streams would escape the request
 * deadline) and refuses ambiguous framing. Installed by the connections route at start-up, before the service reports ready.
 */
public class ConnectionTimeouts {

    private final Duration idle;
    private final Duration request;
    private final boolean h2c;

    /**
     * @param idleSeconds    a connection on which nothing is received or sent for this long, while no answer is being
     *                       prepared or streamed, is closed (0: never)
     * @param requestSeconds a request not received in full this long after its first byte gets 408 and its
     *                       connection is closed (0: no deadline)
     * @param h2c            whether HTTP/2 cleartext (prior knowledge or an {@code Upgrade: h2c}) is spoken; its
     *                       streams get the idle timeout only, not the request deadline
     */
    public ConnectionTimeouts(int idleSeconds, int requestSeconds, boolean h2c) {
        if (idleSeconds < 0 || requestSeconds < 0) {
            throw new IllegalArgumentException("Connection timeouts must be 0 (none) or more seconds");
        }
        this.idle = Duration.ofSeconds(idleSeconds);
        this.request = Duration.ofSeconds(requestSeconds);
        this.h2c = h2c;
    }

    Duration idle() {
        return idle;
    }

    Duration request() {
        return request;
    }

    boolean h2c() {
        return h2c;
    }

    public void install(CamelContext context) {
        var routers = context.getRegistry().findByType(VertxPlatformHttpRouter.class);
        if (routers.isEmpty()) {
            throw new IllegalStateException("No platform-http (Vert.x) server to install connection timeouts on");
        }
        for (VertxPlatformHttpRouter router : routers) {
            // VertxInternal is the only way to a Vert.x instance's transport; ours is the one TimedTransport set up
            if (!(((VertxInternal) router.getServer().getVertx()).transport() instanceof TimedTransport transport)) {
                throw new IllegalStateException("Vert.x runs without " + TimedTransport.class.getName()
                        + " (META-INF/services/io.vertx.core.spi.VertxServiceProvider)");
            }
            transport.timeouts(this);
        }
    }
}
