package dev.docsassistant.model;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The client went away: whatever is being done for it should stop. Set from the Vert.x event loop when the
 * connection closes; a model registers what stops its work (aborting an upstream stream) and waits through it.
 */
public final class Cancellation {

    /** The cancellation of the call this thread is making, for the HTTP client that makes it on this thread. */
    private static final ThreadLocal<Cancellation> CURRENT = new ThreadLocal<>();

    private final CountDownLatch cancelled = new CountDownLatch(1);
    private final List<Runnable> actions = new CopyOnWriteArrayList<>();

    public void cancel() {
        if (cancelled.getCount() > 0) {
            cancelled.countDown();
            actions.forEach(Runnable::run);
        }
    }

    public boolean isCancelled() {
        return cancelled.getCount() == 0;
    }

    /** Runs {@code action} on cancellation, or now if already cancelled. */
    void onCancel(Runnable action) {
        actions.add(action);
        if (isCancelled()) {
            action.run();
        }
    }

    /** Drops an action that no longer has anything to stop. */
    void forget(Runnable action) {
        actions.remove(action);
    }

    /**
     * Runs {@code call} with this cancellation bound to the calling thread: a synchronous route ({@code direct:}
     * then {@code to: http}) makes its HTTP request on this thread, where {@link StreamingHttpClient} finds it. A
     * route that hands the call to another thread (threads, an async circuit breaker) loses it: the request is then
     * only ended by its timeouts.
     */
    <T> T during(Supplier<T> call) {
        CURRENT.set(this);
        try {
            return call.get();
        } finally {
            CURRENT.remove();
        }
    }

    /** The cancellation bound to this thread by {@link #during}, or null. */
    static Cancellation ofThisThread() {
        return CURRENT.get();
    }

    /** Waits up to {@code millis}; true if cancelled meanwhile. */
    boolean await(long millis) throws InterruptedException {
        return cancelled.await(millis, TimeUnit.MILLISECONDS);
    }
}
