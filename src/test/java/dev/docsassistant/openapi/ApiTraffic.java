package dev.docsassistant.openapi;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.AttributeKey;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;
import org.apache.camel.CamelContext;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpRouter;

/**
 * Test-only: records every request the service's HTTP router sees and the response it sent, as they went over the
 * wire (status, headers and the first {@value #KEPT_BODY_BYTES} bytes of the body), so that a test class's whole
 * traffic can be checked against the API description ({@link ApiDescription}) without touching the tests. Installed
 * by src/test/resources/routes/api-traffic.yaml, which every service started from the test classpath loads; it
 * records only where the system property {@value #ENABLED} is true (the suite's JVM: see the pom), not in services a
 * test starts as processes of their own, whose traffic nobody checks and whose heap some tests measure.
 */
public class ApiTraffic {

    /** Enough of a stream to see that it starts as its format says; every JSON answer is whole. */
    static final int KEPT_BODY_BYTES = 256 * 1024;
    /** Every request body whole (the service refuses those over assistant.max-body-bytes), so it can be validated. */
    static final int KEPT_REQUEST_BYTES = 2 * 1024 * 1024;
    static final String ENABLED = "api.traffic.record";

    private static final AttributeKey<Recorded> CURRENT = AttributeKey.valueOf("api-traffic.current");
    /**
     * The body of the request whose head came last on the connection: a head starts a new one, so bytes are never
     * counted to a request other than their own, however the router's dispatch and the reads interleave.
     */
    private static final AttributeKey<ByteArrayOutputStream> BODY = AttributeKey.valueOf("api-traffic.body");
    private static final String HANDLER = "api-traffic";

    private final List<Recorded> recorded = new ArrayList<>();

    /** The recorder of a running service (the api-traffic bean). */
    public static ApiTraffic of(CamelContext context) {
        return context.getRegistry().lookupByNameAndType("apiTraffic", ApiTraffic.class);
    }

    /** One request and its response, as sent. */
    public static final class Recorded {
        private final String method;
        private final String path;
        private final Map<String, List<String>> query;
        private final Map<String, List<String>> requestHeaders;
        private final ByteArrayOutputStream requestBody;
        private final Map<String, List<String>> responseHeaders = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        private final ByteArrayOutputStream responseBody = new ByteArrayOutputStream();
        private int status;

        Recorded(String method, String path, Map<String, List<String>> query,
                Map<String, List<String>> requestHeaders, ByteArrayOutputStream requestBody) {
            this.requestBody = requestBody;
            this.method = method;
            this.path = path;
            this.query = query;
            this.requestHeaders = requestHeaders;
        }

        public String method() {
            return method;
        }

        public String path() {
            return path;
        }

        /** The query's parameters, decoded. */
        public Map<String, List<String>> query() {
            return query;
        }

        public Map<String, List<String>> requestHeaders() {
            return requestHeaders;
        }

        /** The body as received, or null (none arrived: none sent, or refused before it was sent). */
        public byte[] requestBody() {
            return requestBody.size() == 0 ? null : requestBody.toByteArray();
        }

        public int status() {
            return status;
        }

        public Map<String, List<String>> responseHeaders() {
            return responseHeaders;
        }

        public String responseHeader(String name) {
            List<String> values = responseHeaders.get(name);
            return values == null ? null : values.get(0);
        }

        /** The body's first {@value #KEPT_BODY_BYTES} bytes. */
        public byte[] responseBody() {
            return responseBody.toByteArray();
        }

        @Override
        public String toString() {
            return method + " " + path + " -> " + status;
        }
    }

    public void install(CamelContext context) {
        if (!Boolean.getBoolean(ENABLED)) {
            return;
        }
        VertxPlatformHttpRouter router = context.getRegistry().findByType(VertxPlatformHttpRouter.class).stream()
                .filter(VertxPlatformHttpRouter::isMainServer).findFirst().orElseThrow();
        // before every route, HttpErrors' last-resort one included
        router.route().order(Integer.MIN_VALUE).handler(this::track);
    }

    /** Makes the request the connection's current one; the connection's pipeline records what is sent for it. */
    private void track(RoutingContext routing) {
        var request = routing.request();
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        request.headers().forEach(h -> headers.computeIfAbsent(h.getKey(), k -> new ArrayList<>()).add(h.getValue()));
        var channel = ((ConnectionBase) request.connection()).channel();
        // the connection's first request: the recorder is not there yet to have started its body
        channel.attr(BODY).setIfAbsent(new ByteArrayOutputStream());
        Recorded current = new Recorded(request.method().name(), request.path(), query(request.uri()), headers,
                channel.attr(BODY).get());
        channel.attr(CURRENT).set(current);
        if (channel.pipeline().get(HANDLER) == null) {
            channel.pipeline().addBefore("handler", HANDLER, new Recorder());
        }
        routing.next();
    }

    /** The query decoded as the routes read it; an undecodable one (a 400 of its own) is recorded empty. */
    private static Map<String, List<String>> query(String uri) {
        try {
            return new QueryStringDecoder(uri).parameters();
        } catch (IllegalArgumentException e) {
            return Map.of();
        }
    }

    /**
     * Sees the request's body and the response as Netty objects, between the HTTP codec and Vert.x (HTTP/1.1: one
     * request at a time). Added while Vert.x handles a connection's first request head, so its body passes here too.
     */
    private final class Recorder extends ChannelDuplexHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) throws Exception {
            if (message instanceof HttpRequest) {
                ctx.channel().attr(BODY).set(new ByteArrayOutputStream());
            }
            ByteArrayOutputStream body = ctx.channel().attr(BODY).get();
            if (body != null && message instanceof HttpContent content) {
                keep(content.content(), body, KEPT_REQUEST_BYTES);
            }
            super.channelRead(ctx, message);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) throws Exception {
            Recorded current = ctx.channel().attr(CURRENT).get();
            // an interim answer (100 Continue) is not the response
            boolean interim = message instanceof HttpResponse head && head.status().code() < 200;
            if (current != null && !interim) {
                if (message instanceof HttpResponse response) {
                    current.status = response.status().code();
                    response.headers().forEach(h -> current.responseHeaders
                            .computeIfAbsent(h.getKey(), k -> new ArrayList<>()).add(h.getValue()));
                }
                if (message instanceof HttpContent content) {
                    keep(content.content(), current.responseBody, KEPT_BODY_BYTES);
                }
                if (message instanceof LastHttpContent) {
                    ctx.channel().attr(CURRENT).set(null);
                    synchronized (recorded) {
                        recorded.add(current);
                    }
                }
            }
            super.write(ctx, message, promise);
        }
    }

    private static void keep(ByteBuf bytes, ByteArrayOutputStream into, int most) {
        int keep = Math.min(bytes.readableBytes(), most - into.size());
        if (keep > 0) {
            byte[] kept = new byte[keep];
            bytes.getBytes(bytes.readerIndex(), kept);
            into.writeBytes(kept);
        }
    }

    /** What was recorded so far, and forgets it. */
    public List<Recorded> drain() {
        synchronized (recorded) {
            List<Recorded> all = List.copyOf(recorded);
            recorded.clear();
            return all;
        }
    }
}
