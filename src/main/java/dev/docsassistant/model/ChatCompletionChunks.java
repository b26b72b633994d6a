package dev.docsassistant.model;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;


/**
 * The chunks of one streamed chat completion, read from the server-sent events as they arrive: each
 * {@code data:} event is one JSON chunk, {@code data: [DONE]} ends the stream, an {@code error} event fails the read
 * like a broken connection. A chunk that carries a token (text,
 * a tool-call fragment, the finish reason or the usage) moves the deadline for the next one; a stream past its
 * deadline while the reader waits for the server is aborted by {@link StalledStreams} and reads fail with
 * {@link ModelTimeoutException}. Only waiting counts: a reader that is busy elsewhere (writing to a slow client, or
 * short of CPU on a loaded instance) is not the server's silence, and finds its tokens waiting when it reads again.
 */
final class ChatCompletionChunks implements StalledStreams.Watched, AutoCloseable {

    private static final byte[] DONE = {'[', 'D', 'O', 'N', 'E', ']'};
    private static final int MAX_EVENT_BYTES = 1 << 20;

    private final UpstreamResponse response;
    private final EventStream events;
    private final ChatCompletionChunk.Parser parser = new ChatCompletionChunk.Parser();
    private final long idleNanos;
    private final StalledStreams timeouts;
    private ChatCompletionChunk firstToken; // read by awaitFirstToken, not yet by next
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile long deadline;
    private volatile long waitingSince; // 0 while the reader is not waiting for the server
    private volatile boolean expired;
    private volatile boolean bodyRead;
    private boolean done;

    /**
     * @param firstTokenDeadline {@link System#nanoTime()} by which the first token is due
     * @param idleNanos          the longest wait for each token after it
     */
    ChatCompletionChunks(UpstreamResponse response, long firstTokenDeadline, long idleNanos, StalledStreams timeouts) {
        this.response = response;
        this.events = new EventStream(response.body(), MAX_EVENT_BYTES);
        this.deadline = firstTokenDeadline;
        this.idleNanos = idleNanos;
        this.timeouts = timeouts;
        timeouts.watch(this);
    }

    /**
     * Reads until the first token has arrived, keeping it for {@link #next()}: once this returns, the model is
     * answering. The chunks before it (the role chunk) carry nothing a reply reads. A stream that ends first fails
     * with an {@link EOFException}.
     */
    void awaitFirstToken() throws IOException {
        while (true) {
            ChatCompletionChunk chunk = read();
            if (chunk == null) {
                if (done) {
                    return; // an empty but complete answer
                }
                throw new EOFException("The stream ended before the first token");
            }
            if (chunk.carriesToken()) {
                firstToken = chunk;
                return;
            }
        }
    }

    /**
     * The next chunk, waiting for it; null at the end of the stream. One chunk object serves the whole stream: what
     * this returns holds until the next call.
     */
    ChatCompletionChunk next() throws IOException {
        ChatCompletionChunk chunk = firstToken;
        if (chunk != null) {
            firstToken = null;
            return chunk;
        }
        return read();
    }

    /**
     * Whether {@link #next()} has something to read without waiting for the server: the first token kept, or bytes
     * already received (a server sends each event whole, so the rest of it follows at once).
     */
    boolean ready() {
        try {
            return firstToken != null || done || events.ready();
        } catch (IOException closedMeanwhile) {
            return false;
        }
    }

    /** Whether the stream ended with {@code data: [DONE]} rather than just stopping. */
    boolean completed() {
        return done;
    }

    private ChatCompletionChunk read() throws IOException {
        if (done) {
            return null;
        }
        waitingSince = System.nanoTime();
        try {
            return events.next() ? dispatch(events.data(), events.length()) : null;
        } catch (IOException e) {
            if (expired || e instanceof SocketTimeoutException) {
                throw new ModelTimeoutException("The language model stopped sending tokens");
            }
            throw e;
        } finally {
            waitingSince = 0;
        }
    }

    private ChatCompletionChunk dispatch(byte[] data, int length) throws IOException {
        if (Arrays.equals(data, 0, length, DONE, 0, DONE.length)) {
            done = true;
            parser.end();
            response.body().close(); // reads the rest of the body so the connection can be reused
            bodyRead = true;
            return null;
        }
        ChatCompletionChunk chunk = parser.parse(data, length);
        if (chunk.carriesToken()) {
            deadline = System.nanoTime() + idleNanos;
        }
        return chunk;
    }

    /** Past its deadline while waiting; a reader that only now came back to read gets a full idle period first. */
    @Override
    public boolean overdue(long now) {
        long since = waitingSince;
        return since != 0 && now - deadline > 0 && now - (since + idleNanos) > 0;
    }

    @Override
    public void expire() {
        expired = true;
        abort();
    }

    /** Frees the connection: aborted unless the body was read to its end. Safe from any thread, more than once. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            timeouts.forget(this);
            if (!bodyRead) {
                abort();
            }
            response.release().run();
        }
    }

    private void abort() {
        try {
            StreamingHttpClient.abort(response.body());
        } catch (IOException ignored) {
            // the connection is being dropped anyway
        }
    }
}
