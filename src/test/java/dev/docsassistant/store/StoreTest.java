package dev.docsassistant.store;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A misspelt store setting stops the service at start with a message naming the property, not at first use. */
class StoreTest {

    @Test
    void namesThePropertyOfAnUnknownStoreOrPolicy() {
        IllegalArgumentException store = assertThrows(IllegalArgumentException.class,
                () -> new Store("mongo", new Store.RedisSettings("redis://localhost", "", "", 1000), "open", 60));
        assertEquals("assistant.store must be 'memory' or 'redis', not 'mongo'", store.getMessage());
        IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
                () -> new Store("redis", new Store.RedisSettings("redis://localhost", "", "", 1000), "ajar", 60));
        assertEquals("assistant.redis.when-unreachable must be 'open' or 'closed', not 'ajar'", policy.getMessage());
    }

    @Test
    void theMemoryStoreNeedsNoRedis() {
        try (Store store = new Store("memory", new Store.RedisSettings("not a url", "", "", 1000), "closed", 60)) {
            assertNull(store.redis());
            store.connect();
        }
    }

    @Test
    void tellsAnErrorReplyFromAnUnreachableStore() {
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        Logger logger = (Logger) LoggerFactory.getLogger(StoreOutage.class);
        logger.addAppender(logs);
        try {
            new StoreOutage("open", "Redis", Duration.ofMinutes(1)).call(() -> {
                throw new RedisCommandExecutionException("CROSSSLOT Keys in request don't hash to the same slot");
            }, () -> "local");
            new StoreOutage("open", "Redis", Duration.ofMinutes(1)).call(() -> {
                throw new RedisConnectionException("Connection refused");
            }, () -> "local");
            List<String> lines;
            synchronized (logs) {
                lines = logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
            }
            assertEquals(2, lines.size(), lines.toString());
            assertTrue(lines.get(0).startsWith("Redis answered with an error (CROSSSLOT"), lines.get(0));
            assertTrue(lines.get(1).startsWith("Redis is unreachable (Connection refused)"), lines.get(1));
        } finally {
            logger.detachAppender(logs);
        }
    }

    /** Once Redis has failed, one call at a time probes it: the others go on without waiting for it. */
    @Test
    void oneProbeInFlightWhileRedisIsSlow() throws Exception {
        StoreOutage outage = new StoreOutage("open", "Redis", Duration.ofMinutes(1));
        outage.call(() -> {
            throw new RedisCommandTimeoutException("Command timed out");
        }, () -> "local");
        Thread.sleep(1_100); // past the probe interval: the next call probes
        CountDownLatch probing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        Thread probe = new Thread(() -> outage.call(() -> {
            calls.incrementAndGet();
            probing.countDown();
            await(release);
            throw new RedisCommandTimeoutException("Command timed out");
        }, () -> "local"));
        probe.start();
        probing.await();
        try {
            for (int i = 0; i < 5; i++) {
                assertEquals("local", outage.call(() -> {
                    calls.incrementAndGet();
                    return "shared";
                }, () -> "local"), "served without Redis while the probe is in flight");
            }
        } finally {
            release.countDown();
            probe.join();
        }
        assertEquals(1, calls.get(), "only the probe reached Redis");
        assertEquals(2, outage.failures());
        assertEquals(7, outage.fallbacks(), "the first failure, the five calls, the probe");
    }

    /** Failures that go on are logged again (with how many since), not only the first time. */
    @Test
    void repeatedFailuresAreLoggedAgainEachReportInterval() throws Exception {
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        Logger logger = (Logger) LoggerFactory.getLogger(StoreOutage.class);
        logger.addAppender(logs);
        try {
            StoreOutage outage = new StoreOutage("open", "Redis", Duration.ZERO);
            for (int i = 0; i < 2; i++) {
                outage.call(() -> {
                    throw new RedisCommandExecutionException("OOM command not allowed when used memory > 'maxmemory'");
                }, () -> "local");
                Thread.sleep(1_100); // past the probe interval: the next call tries Redis again
            }
            List<String> lines;
            synchronized (logs) {
                lines = logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
            }
            assertEquals(2, lines.size(), lines.toString());
            lines.forEach(line -> assertTrue(line.startsWith("Redis answered with an error (OOM")
                    && line.contains("; 1 call(s) failed since the last report;"), line));
        } finally {
            logger.detachAppender(logs);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
