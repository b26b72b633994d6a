package dev.docsassistant.store;

import java.util.List;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.lettuce.core.RedisCommandExecutionException;
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
                () -> new Store("mongo", new Store.RedisSettings("redis://localhost", "", "", 1000), "open"));
        assertEquals("assistant.store must be 'memory' or 'redis', not 'mongo'", store.getMessage());
        IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
                () -> new Store("redis", new Store.RedisSettings("redis://localhost", "", "", 1000), "ajar"));
        assertEquals("assistant.redis.when-unreachable must be 'open' or 'closed', not 'ajar'", policy.getMessage());
    }

    @Test
    void theMemoryStoreNeedsNoRedis() {
        try (Store store = new Store("memory", new Store.RedisSettings("not a url", "", "", 1000), "closed")) {
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
            new StoreOutage("open", "Redis").call(() -> {
                throw new RedisCommandExecutionException("CROSSSLOT Keys in request don't hash to the same slot");
            }, () -> "local");
            new StoreOutage("open", "Redis").call(() -> {
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
}
