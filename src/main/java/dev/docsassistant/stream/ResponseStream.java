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
    private final Runnable onClose;
    private final OpenStreams openStreams;
    private volatile boolean closed;
    private volatile boolean cut;
    private volatile CompletableFuture<Void> writable = CompletableFuture.completedFuture(null);

    /**
     * @param onClose     run (on the event loop) as soon as the client goes away, to stop whatever produces the parts
     * @param openStreams where the stream is counted, and found to be cut short at shutdown, until it ends
     */
    ResponseStream(HttpServerResponse response, Map<String, String> headers, Runnable onClose,
            OpenStreams openStreams) {
        this.response = response;
        this.onClose = onClose;
        this.openStreams = openStreams;
        response.setStatusCode(200).setChunked(true);
        headers.forEach(response::putHeader);
        response.closeHandler(ignored -> {
            closed = true;
            writable.complete(null);
            onClose.run();
        });
        response.drainHandler(ignored -> writable.complete(null));
        openStreams.add(this);
    }

    /** False once the client has gone away: stop producing. */
    boolean isOpen() {
        return !closed;
    }

    /** True once {@link #cut} ended the stream. */
    boolean wasCut() {
        return cut;
    }

    void write(String part) throws InterruptedException {
        CompletableFuture<Void> drained = new CompletableFuture<>();
        synchronized (this) { // a cut from another thread writes between parts, never inside one
            if (closed) {
                return;
            }
            writable = drained;
            response.write(part);
            if (!response.writeQueueFull()) {
                return;
            }
        }
        awaitDrain(drained);
    }

    /**
     * Ends the stream now with a last part (the service is shutting down) and stops the producer; the writer's next
     * writes are dropped. Safe from any thread.
     */
    void cut(String lastPart) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            cut = true;
            try {
                response.write(lastPart);
            } catch (IllegalStateException connectionGone) {
                // nothing more to tell
            }
            end();
        }
        writable.complete(null);
        onClose.run();
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
        openStreams.remove(this);
        if (!response.ended()) {
            try {
                response.end();
            } catch (IllegalStateException connectionGone) {
                closed = true;
            }
        }
    }
}
