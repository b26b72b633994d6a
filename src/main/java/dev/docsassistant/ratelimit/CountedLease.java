package dev.docsassistant.ratelimit;

import java.util.concurrent.atomic.AtomicBoolean;

/** A lease as the stores hand it out: its figures, and what gives its place back, run at most once. */
final class CountedLease implements RateLimiter.Lease {

    private final boolean granted;
    private final long limit;
    private final long open;
    private final Runnable giveBack;
    private final AtomicBoolean released;

    /** @param open the key's open leases, this one included if granted */
    private CountedLease(boolean granted, long limit, long open, Runnable giveBack) {
        this.granted = granted;
        this.limit = limit;
        this.open = open;
        this.giveBack = giveBack;
        this.released = new AtomicBoolean(!granted);
    }

    static CountedLease granted(long limit, long open, Runnable giveBack) {
        return new CountedLease(true, limit, open, giveBack);
    }

    static CountedLease refused(long limit, long open) {
        return new CountedLease(false, limit, open, () -> { });
    }

    @Override
    public boolean granted() {
        return granted;
    }

    @Override
    public long limit() {
        return limit;
    }

    @Override
    public long remaining() {
        return Math.max(0, limit - open);
    }

    @Override
    public void release() {
        if (released.compareAndSet(false, true)) {
            giveBack.run();
        }
    }
}
