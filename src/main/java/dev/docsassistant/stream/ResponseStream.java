package dev.docsassistant.stream;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * A chunked Vert.x response written from the request's worker thread: parts are {@linkplain #add added} and
 * {@linkplain #flush() flushed}, each flush one write handed to the event loop and sent at once; a client that
 * reads slowly makes the writer wait rather than buffer without bound, and a client that goes away is noticed so
 * the work for it can stop.
 */
final class ResponseStream {

    /** How long a client may leave a full write queue unread before it is treated as gone. */
    private static final Duration STALL_LIMIT = Duration.ofSeconds(60);

    private static final int MAX_BATCH_BYTES = 16 * 1024;

    /** One thread ticks the keep-alives of every stream; a tick only writes a few bytes. */
    private static final ScheduledExecutorService KEEP_ALIVE_TIMER = Executors.newSingleThreadScheduledExecutor(
            task -> {
                Thread thread = new Thread(task, "stream-keep-alive");
                thread.setDaemon(true);
                return thread;
            });

    private final HttpServerResponse response;
    private final Runnable onClose;
    private final OpenStreams openStreams;
    private final String cutShort;
    private final Runnable onFirstByte;
    /**
     * Encoded part by part: one non-Latin-1 character would make a whole batch of text a UTF-16 string, which
     * encodes several times slower than the ASCII of the JSON around it. Only the writer's thread touches it.
     */
    private Buffer unsent = Buffer.buffer();
    private boolean begun;
    private volatile boolean closed;
    private volatile boolean cut;
    private volatile CompletableFuture<Void> writable = CompletableFuture.completedFuture(null);
    private volatile boolean wroteSinceTick;
    private ScheduledFuture<?> keepAlive;

    /**
     * @param onClose     run (on the event loop) as soon as the client goes away, to stop whatever produces the parts
     * @param openStreams where the stream is counted, and found to be cut short at shutdown, until it ends
     * @param cutShort    the last words when the stream is cut short at shutdown, in the stream's protocol
     * @param onFirstByte run when the first write is handed to the client
     */
    ResponseStream(HttpServerResponse response, Map<String, String> headers, Runnable onClose,
            OpenStreams openStreams, String cutShort, Runnable onFirstByte) {
        this.response = response;
        this.onClose = onClose;
        this.openStreams = openStreams;
        this.cutShort = cutShort;
        this.onFirstByte = onFirstByte;
        response.setStatusCode(200).setChunked(true);
        headers.forEach(response::putHeader);
        response.closeHandler(ignored -> {
            closed = true;
            writable.complete(null);
            onClose.run();
        });
        response.drainHandler(ignored -> writable.complete(null));
        closed = response.closed(); // the client left while the model was starting: the handler will not fire
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

    /**
     * Adds a part to the next write. A batch that reaches {@value #MAX_BATCH_BYTES} bytes is written at once, so a
     * fast model still meets a slow reader's back-pressure rather than being read whole into memory.
     */
    void add(String part) throws InterruptedException {
        unsent.appendString(part);
        if (unsent.length() >= MAX_BATCH_BYTES) {
            flush();
        }
    }

    /**
     * Writes what was added since the last flush, as one write: parts that are ready together cost one event-loop
     * task and one network write, not one each.
     */
    void flush() throws InterruptedException {
        if (unsent.length() == 0) {
            return;
        }
        Buffer parts = unsent;
        unsent = Buffer.buffer(); // the written one belongs to the response now
        write(parts);
        if (!begun) {
            begun = true;
            onFirstByte.run();
        }
    }

    private void write(Buffer part) throws InterruptedException {
        CompletableFuture<Void> drained;
        synchronized (this) { // a cut from another thread writes between parts, never inside one
            if (closed) {
                return;
            }
            wroteSinceTick = true;
            response.write(part);
            if (!response.writeQueueFull()) {
                return;
            }
            // Only now a future for the drain handler (not one per part); checked again after it is in place, in
            // case the queue drained in between and the drain handler completed the previous one.
            drained = new CompletableFuture<>();
            writable = drained;
            if (!response.writeQueueFull() || closed) {
                drained.complete(null);
            }
        }
        awaitDrain(drained);
    }

    /**
     * Ends the stream now with its last words (the service is shutting down) and stops the producer; the writer's
     * next writes are dropped. Safe from any thread.
     */
    void cut() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            cut = true;
            try {
                response.write(cutShort);
            } catch (IllegalStateException connectionGone) {
                // nothing more to tell
            }
            end();
        }
        writable.complete(null);
        onClose.run();
    }

    /**
     * From now until {@link #end()}, writes {@code line} every {@code every} during which nothing else was written,
     * so the stream is never silent for much longer than that while the model thinks. Written from the timer's
     * thread: Vert.x orders it with the parts, and it is skipped when the client is not reading anyway.
     */
    void keepAlive(String line, Duration every) {
        wroteSinceTick = false;
        keepAlive = KEEP_ALIVE_TIMER.scheduleAtFixedRate(() -> {
            if (!wroteSinceTick && !closed && !response.writeQueueFull()) {
                try {
                    response.write(line);
                } catch (IllegalStateException ended) {
                    // the stream ended between the check and the write: nothing left to keep alive
                }
            }
            wroteSinceTick = false;
        }, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
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
        if (keepAlive != null) {
            keepAlive.cancel(false);
        }
        if (!response.ended()) {
            try {
                response.end();
            } catch (IllegalStateException connectionGone) {
                closed = true;
            }
        }
    }
}
