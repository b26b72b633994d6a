package dev.docsassistant.web;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.docsassistant.ground.Secrets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.opentelemetry.api.trace.SpanContext;
import io.vertx.core.http.impl.Http1xOrH2CHandler;

/**
 * One connection's clock for {@link ConnectionTimeouts}, at the head of its pipeline, where it sees every read and
 * write:
 * <ul>
 * <li>a request is being received from its first byte until the HTTP decoder has read its last content; past the
 * request deadline it gets 408 (unless its answer has begun) and the connection is closed. The headers count, so
 * a client sending them a byte at a time cannot hold the connection either;</li>
 * <li>the connection is idle when nothing was read or written for the idle timeout while no answer is owed (every
 * request received has had its response ended): the silences of an answer being prepared or streamed (a model
 * thinking) are bounded by the model's own timeouts, not by this one.</li>
 * </ul>
 * Requests and responses are told apart by {@link Boundaries}, placed just before Vert.x's HTTP/1 handler, where
 * messages are HTTP objects. On HTTP/2 (h2c prior knowledge) and TLS connections, whose pipelines differ, only the
 * idle timeout applies (counted on every read and write); TLS ends at the ingress. HTTP/2 cleartext is therefore
 * spoken only where allowed: otherwise its preface closes the connection, and {@code Upgrade: h2c} is dropped so the
 * request is answered over HTTP/1.1.
 * <p>
 * Ambiguous framing (RFC 9112 §6.1) gets 400 and a closed connection: a {@code Transfer-Encoding} other than
 * {@code chunked} alone, or one next to a {@code Content-Length}. Netty frames the latter as chunked and drops the
 * {@code Content-Length} before any handler sees the request, so the head's lines are watched on the wire
 * ({@link HeadLines}).
 */
final class ConnectionClock extends ChannelDuplexHandler {

    private static final String TIMED_OUT = "The request was not received in time; send it again.";
    private static final String AMBIGUOUS = "The request's framing is ambiguous: send either a Content-Length or "
            + "Transfer-Encoding: chunked, not both, and no other transfer coding.";

    private final long idleNanos;
    private final long requestNanos;
    private final boolean h2c;
    private final HeadLines head = new HeadLines();
    private ChannelHandlerContext first;
    private Boundaries boundaries;
    /** Whether request boundaries can be known here: false once the connection turns out not to be HTTP/1. */
    private boolean http1 = true;
    private long lastIo;
    /** The first byte of the request being received, or -1 between requests. */
    private long receivingSince = -1;
    /** Bytes read since then, and the request's head once decoded (for the access log of a refusal). */
    private long bytesIn;
    private HttpRequest receiving;
    private long requests;
    private long responsesEnded;
    /** The request being received has passed its headers (so Vert.x has it, and may have answered it already). */
    private boolean headersIn;
    /** Bytes of a next request came while an answer was owed: its clock starts when that answer ends. */
    private boolean pipelined;
    private boolean responding;
    private ScheduledFuture<?> timer;

    ConnectionClock(ConnectionTimeouts timeouts) {
        this.idleNanos = timeouts.idle().toNanos();
        this.requestNanos = timeouts.request().toNanos();
        this.h2c = timeouts.h2c();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        first = ctx;
        lastIo = System.nanoTime();
        check();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stop();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastIo = System.nanoTime();
        if (http1 && msg instanceof ByteBuf bytes) {
            head.scan(bytes);
            bytesIn += bytes.readableBytes();
        }
        if (http1 && receivingSince < 0 && requestNanos > 0 && !blankLines(msg)) {
            if (boundaries != null && !headersIn && responsesEnded < requests) {
                pipelined = true; // Vert.x takes it up once the answer in progress ends; an answer may stream long
            } else {
                startRequestClock();
            }
        }
        if (boundaries == null && http1 && msg instanceof ByteBuf bytes) {
            // Vert.x builds the HTTP/1 (or HTTP/2) pipeline once the first bytes tell which: hand them over one at a
            // time until it has, so the boundaries are watched before a whole request can pass
            while (bytes.isReadable() && ctx.pipeline().get(Http1xOrH2CHandler.class) != null) {
                ctx.fireChannelRead(bytes.readRetainedSlice(1));
            }
            watchBoundaries(ctx.pipeline());
            if (!bytes.isReadable() || !ctx.channel().isActive()) {
                bytes.release();
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        lastIo = System.nanoTime();
        ctx.write(msg, promise);
    }

    private void startRequestClock() {
        receivingSince = System.nanoTime();
        bytesIn = 0;
        receiving = null;
        if (timer == null || timer.getDelay(TimeUnit.NANOSECONDS) > requestNanos) {
            reschedule(requestNanos);
        }
    }

    /** Empty lines between requests, which HTTP/1.1 lets a client send (some do after a body), start no request. */
    private static boolean blankLines(Object msg) {
        return msg instanceof ByteBuf bytes && bytes.forEachByte(b -> b == '\r' || b == '\n') == -1;
    }

    private void watchBoundaries(ChannelPipeline pipeline) {
        if (pipeline.get(Http1xOrH2CHandler.class) != null) {
            return; // still deciding
        }
        // Vert.x's HTTP/1 pipeline ends with its handler, or, while an h2c upgrade is possible, with the upgrade
        // handler that adds it after itself
        String last = pipeline.get("h2c") != null ? "h2c" : "handler";
        if (pipeline.get("httpDecoder") != null && pipeline.get(last) != null && pipeline.get(SslHandler.class) == null) {
            boundaries = new Boundaries();
            pipeline.addBefore(last, "requestBoundaries", boundaries);
        } else {
            http1 = false;
            receivingSince = -1;
            if (!h2c && pipeline.get(SslHandler.class) == null) {
                first.close(); // HTTP/2 cleartext with prior knowledge: not spoken here
            }
        }
    }

    /** Closes the connection if a limit has passed, else looks again when the next one would. */
    private void check() {
        timer = null;
        if (!first.channel().isActive()) {
            return;
        }
        long now = System.nanoTime();
        long next = Long.MAX_VALUE;
        if (receivingSince >= 0) {
            long left = receivingSince + requestNanos - now;
            if (left <= 0) {
                timeOut();
                return;
            }
            next = left;
        }
        if (idleNanos > 0) {
            if (!http1 || responsesEnded >= requests) {
                long left = lastIo + idleNanos - now;
                if (left <= 0) {
                    if (receivingSince >= 0) {
                        timeOut(); // stalled in the middle of a request's headers
                    } else {
                        first.close();
                    }
                    return;
                }
                next = Math.min(next, left);
            } else {
                next = Math.min(next, idleNanos); // an answer is owed: look again later
            }
        }
        if (next != Long.MAX_VALUE) {
            reschedule(next);
        }
    }

    private void reschedule(long delayNanos) {
        if (timer != null) {
            timer.cancel(false);
        }
        timer = first.executor().schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void stop() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** The request took too long: 408 if nothing of its answer was written (through the HTTP encoder), then close. */
    private void timeOut() {
        if (boundaries == null || responding || (headersIn && responsesEnded >= requests)) {
            first.close();
            return;
        }
        refuse(HttpResponseStatus.REQUEST_TIMEOUT, "request_timeout", TIMED_OUT);
    }

    /** Answers the request being received with a problem, no route having seen it, and closes the connection. */
    private void refuse(HttpResponseStatus status, String code, String detail) {
        String requestId = "req_" + Secrets.id(12);
        String body = ProblemResponse.body(status.code(), code, detail, null, requestId);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json")
                .set(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes())
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set("X-Request-Id", requestId);
        long waitedMs = (System.nanoTime() - receivingSince) / 1_000_000;
        int bytesOut = response.content().readableBytes(); // before the write consumes it
        boundaries.ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        // no route saw this request: the access log gets its line here (the socket's peer, no proxy resolution)
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("requestId", requestId);
        line.put("method", receiving == null ? null : receiving.method().name()); // null: still in its headers
        line.put("status", status.code());
        line.put("latencyMs", waitedMs);
        line.put("bytesIn", bytesIn);
        line.put("bytesOut", bytesOut);
        line.put("code", code);
        line.put("peer", first.channel().remoteAddress() instanceof InetSocketAddress peer
                ? peer.getAddress().getHostAddress() : null);
        RequestLog.write(line, SpanContext.getInvalid()); // no trace: no route ran
    }

    /** Whether a request's framing is ambiguous (RFC 9112 §6.1): its body could be read two ways. */
    private boolean ambiguous(HttpRequest request) {
        List<String> codings = request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        return !codings.isEmpty() && (head.contentLength || codings.size() > 1
                || !codings.get(0).strip().equalsIgnoreCase(HttpHeaderValues.CHUNKED.toString()));
    }

    /**
     * The header lines of the request being received, as they pass on the wire: whether one is a Content-Length.
     * Watched from a request's first byte to the blank line ending its head; the next request's head is watched
     * once the body of this one has ended (a pipelined head in the same read is not).
     */
    private static final class HeadLines {

        private static final byte[] NAME = "content-length:".getBytes(StandardCharsets.US_ASCII);

        private boolean inHead = true;
        private boolean contentLength;
        private int lineLength;
        /** How much of NAME this line began with so far; -1 once it cannot be that header. */
        private int matched;

        void scan(ByteBuf bytes) {
            if (inHead) {
                bytes.forEachByte(bytes.readerIndex(), bytes.readableBytes(), this::next);
            }
        }

        private boolean next(byte b) {
            if (b == '\n') {
                if (lineLength == 0) {
                    inHead = false; // the blank line: the body follows
                    return false;
                }
                lineLength = 0;
                matched = 0;
            } else if (b != '\r') {
                if (matched >= 0 && matched < NAME.length && Character.toLowerCase(b) == NAME[matched]) {
                    contentLength |= ++matched == NAME.length;
                } else {
                    matched = -1;
                }
                lineLength++;
            }
            return true;
        }

        void nextRequest() {
            inHead = true;
            contentLength = false;
            lineLength = 0;
            matched = 0;
        }
    }

    /** Where requests end (the decoder's last content) and responses begin and end, on an HTTP/1 connection. */
    private final class Boundaries extends ChannelDuplexHandler {

        private ChannelHandlerContext ctx;
        private boolean refused;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (refused) {
                ReferenceCountUtil.release(msg); // the rest of a refused request: its connection is closing
                return;
            }
            if (msg instanceof HttpRequest request) {
                receiving = request;
                if (ambiguous(request)) {
                    refused = true;
                    ReferenceCountUtil.release(msg);
                    refuse(HttpResponseStatus.BAD_REQUEST, "invalid_request", AMBIGUOUS);
                    return;
                }
                if (!h2c && request.headers().containsValue(HttpHeaderNames.UPGRADE, "h2c", true)) {
                    request.headers().remove(HttpHeaderNames.UPGRADE); // answered over HTTP/1.1, as RFC 9110 allows
                }
                requests++;
                headersIn = true;
            }
            if (msg instanceof LastHttpContent) {
                receivingSince = -1;
                headersIn = false;
                pipelined = false;
                head.nextRequest();
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof HttpResponse) {
                responding = true;
            }
            if (msg instanceof LastHttpContent) {
                responding = false;
                responsesEnded++;
                if (pipelined && responsesEnded >= requests) {
                    pipelined = false;
                    startRequestClock();
                }
            }
            ctx.write(msg, promise);
        }
    }
}
