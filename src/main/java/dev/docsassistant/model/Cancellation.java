package dev.docsassistant.model;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The client went away: whatever is being done for it should stop. Set from the Vert.x event loop when the
 * connection closes; a model registers what stops its work (aborting an upstream stream) and waits through it.
 */
public final class Cancellation {

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

    /** Waits up to {@code millis}; true if cancelled meanwhile. */
    boolean await(long millis) throws InterruptedException {
        return cancelled.await(millis, TimeUnit.MILLISECONDS);
    }
}
