package dev.docsassistant.request;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import dev.docsassistant.ground.ClientGoneException;
import dev.docsassistant.ground.InvalidRequestException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.PlatformHttpEndpoint;
import org.apache.camel.component.platform.http.vertx.HttpMessage;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpRouter;
import org.apache.camel.support.SynchronizationAdapter;

/**
 * Reads the request body, and refuses one that is missing, not declared as JSON, over {@code maxBodyBytes} (413,
 * from its Content-Length before reading, or as soon as a chunked body passes it), or not well-formed UTF-8 (JSON's
 * only encoding on the wire; Jackson alone lets some malformed UTF-8 through, an overlong {@code /}, say).
 * <p>
 * The API's endpoints do not let platform-http read the body before the route runs ({@code useBodyHandler=false}):
 * the body is read here, after the key, domain and quotas were checked from the headers, so a refused request
 * costs no body (a client that sent {@code Expect: 100-continue} is told to send it only now). How long the
 * client may take to send it is bounded by {@code assistant.http.request-timeout-seconds}.
 * <p>
 * Except a small body already on its way: one of at most {@code prefetchBytes} (by its Content-Length, no
 * {@code Expect}, over HTTP/1) is taken on the event loop as it arrives, before the route runs ({@link #install}), while all
 * such bodies together hold at most {@code prefetchTotalBytes}. Waiting here for the event loop to hand a body over
 * costs two thread switches per request; a body that small costs less than the socket buffer that holds it anyway.
 * <p>
 * Every body read here counts against {@code bodyBudgetBytes} from its first byte until its exchange completes (the
 * request it became, attachments included, lives as long as the answer): one that would pass it is refused with 503
 * and {@code Retry-After} ({@link BodiesBusyException}), so that bodies up to {@code maxBodyBytes} (a message's
 * attachments) arriving many at once cannot exhaust the heap.
 */
public class RequireJsonBody implements Processor {

    private final long maxBodyBytes;
    private final long prefetchBytes;
    private final long prefetchTotalBytes;
    private final long readTimeoutNanos;
    /** Prefetched bodies, until the step takes them or the response ends. */
    private final Map<HttpServerRequest, Buffer> prefetched = new ConcurrentHashMap<>();
    private final AtomicLong prefetchedBytes = new AtomicLong();
    private final long bodyBudgetBytes;
    /** Bytes of the bodies read here whose exchanges have not completed. */
    private final AtomicLong heldBytes = new AtomicLong();

    /**
     * @param prefetchBytes      the largest body taken before the route runs (0: none)
     * @param prefetchTotalBytes the most all bodies taken before their route runs may hold at once
     * @param readTimeoutSeconds the longest a body is waited for once its read begins (0: as long as the connection
     *                           lasts); the connection's own request deadline should end it first
     * @param bodyBudgetBytes    the most all bodies read here may hold at once, until their exchanges complete
     */
    public RequireJsonBody(long maxBodyBytes, long prefetchBytes, long prefetchTotalBytes, int readTimeoutSeconds,
            long bodyBudgetBytes) {
        this.maxBodyBytes = maxBodyBytes;
        this.readTimeoutNanos = TimeUnit.SECONDS.toNanos(readTimeoutSeconds);
        this.prefetchBytes = Math.min(prefetchBytes, maxBodyBytes);
        this.prefetchTotalBytes = prefetchTotalBytes;
        this.bodyBudgetBytes = bodyBudgetBytes;
    }

    /**
     * Puts the prefetch in front of every endpoint that reads its body here ({@code useBodyHandler=false}); one
     * that lets Vert.x's body handler read it is left alone.
     */
    public void install(CamelContext context) {
        if (prefetchBytes <= 0) {
            return;
        }
        VertxPlatformHttpRouter router = context.getRegistry().findByType(VertxPlatformHttpRouter.class).stream()
                .filter(VertxPlatformHttpRouter::isMainServer).findFirst()
                .orElseThrow(() -> new IllegalStateException("No platform-http (Vert.x) server to install on"));
        for (PlatformHttpEndpoint endpoint : context.getEndpoints().stream()
                .filter(PlatformHttpEndpoint.class::isInstance).map(PlatformHttpEndpoint.class::cast)
                .filter(endpoint -> !endpoint.isUseBodyHandler()).toList()) {
            String path = endpoint.getPath().replaceAll("\\{([^/}]+)}", ":$1"); // Vert.x names parameters :name
            String methods = endpoint.getHttpMethodRestrict();
            for (String method : methods == null ? new String[] {"POST"} : methods.split(",")) {
                // just before the routes (Vert.x numbers them from 0 as they are added), after any handler placed
                // first to see requests as they come
                router.route(HttpMethod.valueOf(method.strip()), path).order(-1).handler(this::prefetch);
            }
        }
    }

    /** On the event loop: the body, if small and announced, before the route's handler runs. */
    private void prefetch(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        long bytes = length == null ? -1 : declaredLength(length);
        // HTTP/1 only: platform-http pauses the request before the route, which an ended HTTP/2 stream refuses
        if (request.version() == HttpVersion.HTTP_2 || bytes <= 0 || bytes > prefetchBytes
                || request.headers().contains(HttpHeaders.EXPECT) || !reserve(bytes)) {
            ctx.next();
            return;
        }
        ctx.addEndHandler(ended -> {
            prefetched.remove(request);
            prefetchedBytes.addAndGet(-bytes);
        });
        request.body().onSuccess(body -> {
            prefetched.put(request, body);
            ctx.next();
        }); // a failure is the connection closing: the end handler releases what was held
    }

    /**
     * The step of an endpoint whose body is read before its sender is known (the push webhook, signed over its body):
     * this step with a smaller cap, {@code maxBodyBytes}, so that an unsigned body costs at most that much to read
     * and hash. It shares the prefetch and the bodies' budget with {@code base}.
     */
    public static Processor capped(RequireJsonBody base, long maxBodyBytes) {
        long max = Math.min(maxBodyBytes, base.maxBodyBytes);
        return exchange -> base.process(exchange, max);
    }

    @Override
    public void process(Exchange exchange) throws InterruptedException {
        process(exchange, maxBodyBytes);
    }

    private void process(Exchange exchange, long maxBodyBytes) throws InterruptedException {
        String type = exchange.getMessage().getHeader(Exchange.CONTENT_TYPE, String.class);
        if (!isJson(type)) {
            throw new UnsupportedMediaTypeException(
                    "Content-Type must be application/json, not " + (type == null ? "missing" : "'" + type + "'"));
        }
        byte[] body = exchange.getMessage().getBody() instanceof HttpServerRequest request
                ? body(request, exchange, maxBodyBytes)
                : exchange.getMessage().getBody(byte[].class);
        if (body == null) {
            throw new InvalidRequestException(null, "The request body is required: a JSON object");
        }
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body));
        } catch (CharacterCodingException e) {
            throw new InvalidRequestException(null, "The request body is not valid UTF-8");
        }
        exchange.getMessage().setBody(body);
    }

    /** Takes {@code bytes} more of the bodies' budget for one request ({@code held}), if the budget has them. */
    private boolean hold(AtomicLong held, long bytes) {
        if (heldBytes.addAndGet(bytes) > bodyBudgetBytes) {
            heldBytes.addAndGet(-bytes);
            return false;
        }
        held.addAndGet(bytes);
        return true;
    }

    private boolean reserve(long bytes) {
        if (prefetchedBytes.addAndGet(bytes) <= prefetchTotalBytes) {
            return true;
        }
        prefetchedBytes.addAndGet(-bytes);
        return false;
    }

    private byte[] body(HttpServerRequest request, Exchange exchange, long maxBodyBytes) throws InterruptedException {
        Buffer body = prefetched.remove(request);
        if (body != null && body.length() > maxBodyBytes) {
            throw new BodyTooLargeException(maxBodyBytes);
        }
        return body != null ? body.getBytes() : read(request, exchange, maxBodyBytes);
    }

    /** The (paused) request's body, null if it has none; waits for it on this worker thread. */
    private byte[] read(HttpServerRequest request, Exchange exchange, long maxBodyBytes) throws InterruptedException {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length == null && !request.headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
            return null;
        }
        long declared = length == null ? -1 : declaredLength(length);
        if (declared > maxBodyBytes) {
            throw new BodyTooLargeException(maxBodyBytes);
        }
        AtomicLong held = new AtomicLong(); // released when the exchange completes, however it does
        exchange.getExchangeExtension().addOnCompletion(new SynchronizationAdapter() {
            @Override
            public void onDone(Exchange done) {
                heldBytes.addAndGet(-held.getAndSet(0));
            }
        });
        if (declared > 0 && !hold(held, declared)) {
            throw new BodiesBusyException();
        }
        CompletableFuture<byte[]> read = new CompletableFuture<>();
        Buffer body = Buffer.buffer();
        request.handler(chunk -> {
            if (body.length() + chunk.length() > maxBodyBytes) {
                request.pause(); // the rest is not read: the refusal closes the connection
                read.completeExceptionally(new BodyTooLargeException(maxBodyBytes));
            } else if (declared < 0 && !hold(held, chunk.length())) { // chunked: held as it arrives
                request.pause();
                read.completeExceptionally(new BodiesBusyException());
            } else {
                body.appendBuffer(chunk);
            }
        }).exceptionHandler(read::completeExceptionally).endHandler(end -> read.complete(body.getBytes()));
        HttpMessage http = exchange.getMessage(HttpMessage.class);
        // A body the decoder cannot frame (a bad chunk size) fails the request and closes the connection at once,
        // usually before this step set its handlers, so neither the end nor the exception reaches them: a close,
        // past or to come, ends the read, and the deadline any read Vert.x never reports on.
        HttpServerResponse response = http.getResponse();
        response.closeHandler(closed -> read.completeExceptionally(new ClientGoneException()));
        if (response.closed()) {
            read.completeExceptionally(new ClientGoneException());
        }
        if ("100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))
                && request.version() != HttpVersion.HTTP_1_0) {
            http.getResponse().writeContinue();
        }
        request.resume();
        try {
            return readTimeoutNanos > 0 ? read.get(readTimeoutNanos, TimeUnit.NANOSECONDS) : read.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof BodyTooLargeException tooLarge) {
                throw tooLarge;
            }
            if (e.getCause() instanceof BodiesBusyException busy) {
                throw busy;
            }
            throw new ClientGoneException(); // the connection closed (or timed out) before the body ended
        } catch (TimeoutException e) {
            request.connection().close(); // the connection's own deadline has passed: it should be closed already
            throw new ClientGoneException();
        } finally {
            response.closeHandler(null); // the steps after may watch the connection themselves
        }
    }

    /** Content-Length as a number; one that is not (Vert.x would have refused it) counts as too large. */
    private static long declaredLength(String length) {
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int end = contentType.indexOf(';');
        String mediaType = (end < 0 ? contentType : contentType.substring(0, end)).trim();
        return mediaType.equalsIgnoreCase("application/json");
    }
}
