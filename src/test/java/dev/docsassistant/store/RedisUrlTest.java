package dev.docsassistant.store;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which Lettuce client each form of {@code assistant.redis.url} gets, as the logs name it (never with its password),
 * and a Cluster URL with a database refused at start. Connecting is tested on real servers: {@code SharedStoreTest},
 * {@code ClusterStoreTest}, {@code SentinelStoreTest}.
 */
class RedisUrlTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    @Test
    void aStandaloneOrSentinelUrlIsOneRedis() {
        assertEquals("redis://h1:6380/2", new Redis("redis://docs:pw@h1:6380/2", "", "", TIMEOUT).toString());
        assertEquals("rediss://h1:6379/0", new Redis("rediss://h1", "", "", TIMEOUT).toString());
        assertEquals("redis-sentinel://mymaster/1",
                new Redis("redis-sentinel://pw@s1:26379,s2:26380/1#mymaster", "", "", TIMEOUT).toString());
    }

    @Test
    void aClusterUrlNamesSeedNodesWithoutTheirCredentials() {
        assertEquals("redis-cluster://h1:7000,h2:7001,h3:6379",
                new Redis("redis-cluster://docs:p%40ss@h1:7000,h2:7001,h3", "", "", TIMEOUT).toString());
        assertEquals("rediss-cluster://h1:7000",
                new Redis("rediss-cluster://h1:7000/0", "u", "pw", TIMEOUT).toString());
    }

    @Test
    void aClusterUrlWithADatabaseIsRefusedAtStart() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new Redis("redis-cluster://h1:7000,h2:7001/3", "", "", TIMEOUT));
        assertTrue(refused.getMessage().startsWith("assistant.redis.url: a Cluster URL is redis-cluster://"),
                refused.getMessage());
    }
}
