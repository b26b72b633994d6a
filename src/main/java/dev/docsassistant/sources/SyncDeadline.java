package dev.docsassistant.sources;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * When one sync must give up: past its deadline ({@code assistant.sources.sync-timeout-seconds}), or as soon as it is
 * no longer wanted (its domain left the tenants file or names another source, the service is stopping). Checked
 * before every request and on every read, and no single wait outlasts it, so every sync ends.
 */
final class SyncDeadline {

    private final long deadline;
    private final Duration timeout;
    private final BooleanSupplier wanted;

    SyncDeadline(Duration timeout, BooleanSupplier wanted) {
        this.deadline = System.nanoTime() + timeout.toNanos();
        this.timeout = timeout;
        this.wanted = wanted;
    }

    /** @throws SyncException the sync is past its deadline or no longer wanted */
    void check() throws SyncException {
        if (!wanted.getAsBoolean()) {
            throw new SyncException("sync cancelled: the domain left the tenants file or names another source");
        }
        if (System.nanoTime() - deadline >= 0) {
            throw new SyncException("the sync took longer than " + timeout.toSeconds()
                    + " s (assistant.sources.sync-timeout-seconds)");
        }
    }

    /** {@code in}, checking this deadline before each read: a source that trickles ends at its next byte past it. */
    InputStream checking(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                check();
                return super.read();
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                check();
                return super.read(buffer, offset, length);
            }
        };
    }

    boolean over() {
        return !wanted.getAsBoolean() || System.nanoTime() - deadline >= 0;
    }

    /** How long one operation may wait: its own {@code timeout}, or what the sync has left if that is less. */
    Duration bound(Duration operation) {
        return Duration.ofNanos(Math.max(1_000_000, Math.min(operation.toNanos(), deadline - System.nanoTime())));
    }
}
