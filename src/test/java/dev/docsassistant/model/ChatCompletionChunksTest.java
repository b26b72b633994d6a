package dev.docsassistant.model;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The idle timeout counts the time the reader waits for the server, not the time it spends elsewhere. */
class ChatCompletionChunksTest {

    private static final long IDLE = TimeUnit.MILLISECONDS.toNanos(300);

    private final StalledStreams timeouts = new StalledStreams();

    @AfterEach
    void stopTicking() {
        timeouts.close();
    }

    @Test
    void aReaderBusyElsewhereFindsItsTokensWaiting() throws Exception {
        ChatCompletionChunks chunks = chunks(new ByteArrayInputStream((token("one") + token("two") + "data: [DONE]\n\n")
                .getBytes(StandardCharsets.UTF_8)));
        chunks.awaitFirstToken();
        assertEquals("one", content(chunks.next()));

        Thread.sleep(3 * TimeUnit.NANOSECONDS.toMillis(IDLE)); // writing to a slow client, or short of CPU

        assertEquals("two", content(chunks.next()), "the server was not silent: the token was there all along");
    }

    @Test
    void aServerSilentWhileTheReaderWaitsIsGivenUpOn() throws Exception {
        ChatCompletionChunks chunks = chunks(new SilentAfter(token("one")));
        chunks.awaitFirstToken();
        assertEquals("one", content(chunks.next()));

        assertThrows(ModelTimeoutException.class, chunks::next); // nothing more comes
    }

    private ChatCompletionChunks chunks(InputStream body) {
        long now = System.nanoTime();
        return new ChatCompletionChunks(new UpstreamResponse(200, null, new Abortable(body), () -> { }), now + IDLE,
                IDLE, timeouts);
    }

    private static String token(String text) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}]}\n\n";
    }

    private static String content(ChatCompletionChunk chunk) {
        return chunk.content();
    }

    /** A server that sends {@code first}, then nothing: a read waits until the connection is dropped, then fails. */
    private static final class SilentAfter extends InputStream {

        private final InputStream first;
        private final CountDownLatch dropped = new CountDownLatch(1);

        SilentAfter(String first) {
            this.first = new ByteArrayInputStream(first.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0];
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (first.available() > 0) {
                return first.read(b, off, len);
            }
            try {
                dropped.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("Connection dropped");
        }

        @Override
        public void close() {
            dropped.countDown();
        }
    }

    /**
     * A connection: bytes come a few at a time, as from a socket, so the reader cannot have read ahead; once
     * aborted, every read fails.
     */
    private static final class Abortable extends FilterInputStream {

        private volatile boolean aborted;

        Abortable(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (aborted) {
                throw new IOException("aborted");
            }
            return super.read(b, off, Math.min(len, 16));
        }

        @Override
        public int available() {
            return 0;
        }

        @Override
        public void close() throws IOException {
            aborted = true;
            super.close();
        }
    }
}
