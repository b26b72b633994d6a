package dev.docsassistant.web;

import java.nio.file.Path;

import org.apache.camel.main.Main;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The jar's entry point: Camel's {@link Main}, with what would escape it logged rather than printed. A start-up
 * failure, or an exception no thread caught, reaches the log as one line of the configured format (with
 * {@code ASSISTANT_LOG_FORMAT=json} or {@code ecs}, its stack trace a field of that JSON), not as the JVM's plain-text
 * stack trace on standard error, which a log collector reading JSON would split into lines of garbage. Libraries that
 * log through java.util.logging (Lucene, the OpenTelemetry SDK) are routed to the same log before any of them loads,
 * not printed by JUL's console handler as two plain lines each.
 */
public final class Service {

    private static final Logger LOG = LoggerFactory.getLogger(Service.class);

    private Service() {
    }

    public static void main(String[] args) {
        SLF4JBridgeHandler.removeHandlersForRootLogger(); // JUL's console handler: plain text on standard error
        SLF4JBridgeHandler.install();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> LOG.error("Uncaught in {}", thread.getName(), e));
        if (Runtime.version().feature() < 21) {
            LOG.warn("Running on Java {}: each open answer holds a platform thread while it streams, and a burst of "
                    + "hundreds at once queues for seconds (BENCHMARKS.md); run on Java 21 or later for many "
                    + "concurrent streams, where each waits on a virtual thread", Runtime.version().feature());
        }
        try {
            AotCache.Use cache = AotCache.use();
            if (cache == AotCache.Use.RESTART_WITHOUT) {
                System.exit(AotCache.restartWithout(args));
            }
            boolean warmed = Warmup.run(cache == AotCache.Use.CACHE);
            Path training = AotCache.training();
            if (training != null) {
                // a training run ends here: the JVM writes the cache as it exits, the image's build fails without one
                if (warmed) {
                    AotCache.stamp(training);
                } else {
                    LOG.error("The training run for the AOT cache {} did not warm up (assistant.warmup.requests 0, or "
                            + "the warm-up failed): no stamp, so no start will use what the JVM writes", training);
                }
                System.exit(warmed ? 0 : 1);
            }
            Main.main(args);
        } catch (Exception | Error e) {
            LOG.error("The service failed to start", e);
            System.exit(1);
        }
    }
}
