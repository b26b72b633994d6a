package dev.docsassistant.store;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A misspelt store setting stops the service at start with a message naming the property, not at first use. */
class StoreTest {

    @Test
    void namesThePropertyOfAnUnknownStoreOrPolicy() {
        IllegalArgumentException store = assertThrows(IllegalArgumentException.class,
                () -> new Store("mongo", "redis://localhost", "", "", 1000, "open"));
        assertEquals("assistant.store must be 'memory' or 'redis', not 'mongo'", store.getMessage());
        IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
                () -> new Store("redis", "redis://localhost", "", "", 1000, "ajar"));
        assertEquals("assistant.redis.when-unreachable must be 'open' or 'closed', not 'ajar'", policy.getMessage());
    }

    @Test
    void theMemoryStoreNeedsNoRedis() {
        try (Store store = new Store("memory", "not a url", "", "", 1000, "closed")) {
            assertNull(store.redis());
            store.connect();
        }
    }
}
