package dev.docsassistant.web;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.vertx.core.impl.VertxBuilder;
import io.vertx.core.impl.transports.JDKTransport;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.spi.VertxServiceProvider;

/**
 * The JDK (NIO) transport Vert.x uses when no native transport is on the class path (none is), with one change: every
 * connection a server accepts gets a {@link ConnectionClock} at the head of its pipeline, which enforces the
 * {@link ConnectionTimeouts} installed on this Vert.x instance. Registered as a Vert.x service provider
 * ({@code META-INF/services}), so it applies to whichever Vert.x instance platform-http creates; each instance gets
 * its own. Until timeouts are installed, connections are accepted without them.
 */
public class TimedTransport extends JDKTransport implements VertxServiceProvider {

    private volatile ConnectionTimeouts timeouts;

    @Override
    public void init(VertxBuilder builder) {
        builder.findTransport(this);
    }

    void timeouts(ConnectionTimeouts timeouts) {
        this.timeouts = timeouts;
    }

    @Override
    public void configure(NetServerOptions options, boolean domainSocket, ServerBootstrap bootstrap) {
        super.configure(options, domainSocket, bootstrap);
        ChannelHandler vertx = bootstrap.config().childHandler();
        bootstrap.childHandler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel channel) {
                ConnectionTimeouts limits = timeouts;
                if (limits != null) {
                    channel.pipeline().addLast(new ConnectionClock(limits));
                }
                channel.pipeline().addLast(vertx);
            }
        });
    }
}
