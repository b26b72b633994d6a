package dev.docsassistant.stream;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.vertx.core.http.HttpServerResponse;

/**
 * A chunked Vert.x response written from the request's worker thread: each write is sent (and flushed) at once,
 * a client that reads slowly makes the writer wait rather than buffer without bound, and a client that goes away
 * is noticed so the work for it can stop.
 */
final class ResponseStream {

    /** How long a client may leave a full write queue unread before it is treated as gone. */
    private static final Duration STALL_LIMIT = Duration.ofSeconds(60);

    private final HttpServerResponse response;
    private volatile boolean closed;
    private volatile CompletableFuture<Void> writable = CompletableFuture.completedFuture(null);

    /**
     * @param onClose run (on the event loop) as soon as the client goes away, to stop whatever produces the parts
     */
    ResponseStream(HttpServerResponse response, Map<String, String> headers, Runnable onClose) {
        this.response = response;
        response.setStatusCode(200).setChunked(true);
        headers.forEach(response::putHeader);
        response.closeHandler(ignored -> {
            closed = true;
            writable.complete(null);
            onClose.run();
        });
        response.drainHandler(ignored -> writable.complete(null));
    }

    /** False once the client has gone away: stop producing. */
    boolean isOpen() {
        return !closed;
    }

    void write(String part) throws InterruptedException {
        if (closed) {
            return;
        }
        response.write(part);
        if (response.writeQueueFull()) {
            // Only now a future for the drain handler (not one per part); checked again after it is in place, in
            // case the queue drained in between and the drain handler completed the previous one.
            CompletableFuture<Void> drained = new CompletableFuture<>();
            writable = drained;
            if (!response.writeQueueFull() || closed) {
                drained.complete(null);
            }
            awaitDrain(drained);
        }
    }

    private void awaitDrain(CompletableFuture<Void> drained) throws InterruptedException {
        try {
            drained.get(STALL_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            closed = true;
            response.reset(); // the client stopped reading: free the connection
        } catch (ExecutionException e) {
            closed = true;
        }
    }

    /** Ends the response; always safe to call, also after the client went away. */
    void end() {
        if (!response.ended()) {
            try {
                response.end();
            } catch (IllegalStateException connectionGone) {
                closed = true;
            }
        }
    }
}
