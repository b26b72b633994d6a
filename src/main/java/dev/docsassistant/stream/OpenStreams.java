package dev.docsassistant.stream;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streams being written right now: counted for {@code /observe/metrics}, and ended at shutdown. When the service
 * is asked to stop (SIGTERM), platform-http stops taking requests (503) while open streams go on for up to the grace
 * period ({@code assistant.shutdown.grace-seconds}); those still open then end with an error part ({@code 3:} on /v1) so the client
 * knows the answer was cut short and can ask again.
 */
public class OpenStreams implements MeterBinder {

    private static final Logger LOG = LoggerFactory.getLogger(OpenStreams.class);
    /** What a stream cut short at shutdown tells its client last. */
    static final String SHUTDOWN_MESSAGE = "The service is restarting and this answer was cut short. Please ask again.";

    private final Set<ResponseStream> open = ConcurrentHashMap.newKeySet();
    private final Duration grace;
    private volatile Thread drain;

    public OpenStreams(long graceSeconds) {
        this.grace = Duration.ofSeconds(graceSeconds);
    }

    public int size() {
        return open.size();
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        Gauge.builder("assistant.streams.open", this, OpenStreams::size).description("Answers being streamed now")
                .register(meters);
    }

    void add(ResponseStream stream) {
        open.add(stream);
    }

    void remove(ResponseStream stream) {
        open.remove(stream);
    }

    /** Shutdown began: streams get the grace period, then the rest are cut. Returns at once. */
    synchronized void shutdownBegins() {
        if (drain != null) {
            return;
        }
        LOG.info("Shutting down: {} open stream(s) may finish within {}s", open.size(), grace.toSeconds());
        drain = new Thread(() -> {
            long deadline = System.nanoTime() + grace.toNanos();
            try {
                while (!open.isEmpty() && System.nanoTime() < deadline) {
                    TimeUnit.MILLISECONDS.sleep(50);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            cutAll();
        }, "stream-drain");
        drain.setDaemon(true);
        drain.start();
    }

    /** Ends every open stream now, each with its protocol's error ({@code 3:} on /v1). */
    void cutAll() {
        if (!open.isEmpty()) {
            LOG.warn("Grace period over: cutting {} open stream(s) short", open.size());
        }
        for (ResponseStream stream : Set.copyOf(open)) {
            stream.cut();
        }
    }
}
