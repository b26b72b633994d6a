package dev.docsassistant.web;

import io.vertx.core.net.impl.TCPServerBase;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.StartupListener;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpRouter;

/**
 * Start-up fails unless every HTTP server of the service (the API's and the management port's) is listening.
 * platform-http only logs a port it cannot bind (already taken, say) and starts anyway, so the process would stay up
 * serving nothing while its health answered from the other port; failing here ends it with a non-zero exit, which
 * the orchestrator sees. A configuration class ({@code camel.main.configuration-classes}): checked once the context
 * has started its services, servers included.
 */
public class BoundPorts implements CamelConfiguration {

    @Override
    public void configure(CamelContext context) throws Exception {
        context.addStartupListener(new StartupListener() {
            @Override
            public void onCamelContextStarted(CamelContext started, boolean alreadyStarted) {
                var routers = started.getRegistry().findByType(VertxPlatformHttpRouter.class);
                if (routers.isEmpty()) {
                    throw new IllegalStateException("No HTTP server started: is a port already taken?");
                }
                for (VertxPlatformHttpRouter router : routers) {
                    // TCPServerBase (Vert.x's own server base) is the only way to whether the bind succeeded:
                    // actualPort() reports the requested port either way
                    if (!((TCPServerBase) router.getServer().getServer()).isListening()) {
                        throw new IllegalStateException("An HTTP server of the service is not listening: is "
                                + "camel.server.port or camel.management.port already taken? (see above)");
                    }
                }
            }
        });
    }
}
