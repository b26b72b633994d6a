package dev.docsassistant.model;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The first-token and between-token timeouts of every open model stream, checked by one ticking thread: a token
 * costs a volatile write (its stream's new deadline), not a timer, and a stream past its deadline is aborted, which
 * makes its waiting read fail at once.
 */
final class StalledStreams implements AutoCloseable {

    private static final long TICK_MILLIS = 100;

    /** A stream with a deadline. */
    interface Watched {
        /** Whether the stream is past its deadline at {@code now} ({@link System#nanoTime()}). */
        boolean overdue(long now);

        /** Gives up on the stream. */
        void expire();
    }

    private final Set<Watched> watched = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService ticker; // started by the first stream: Camel builds YAML beans twice

    void watch(Watched stream) {
        watched.add(stream);
        synchronized (this) {
            if (ticker == null) {
                ticker = Executors.newSingleThreadScheduledExecutor(task -> {
                    Thread thread = new Thread(task, "model-stream-timeouts");
                    thread.setDaemon(true);
                    return thread;
                });
                ticker.scheduleWithFixedDelay(this::expireStalled, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
    }

    void forget(Watched stream) {
        watched.remove(stream);
    }

    private void expireStalled() {
        long now = System.nanoTime();
        for (Watched stream : watched) {
            if (stream.overdue(now)) {
                watched.remove(stream);
                stream.expire();
            }
        }
    }

    @Override
    public synchronized void close() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
    }
}
