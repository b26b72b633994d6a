package dev.docsassistant;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances of the service finding their Redis through a real Sentinel ({@code redis-sentinel://…#docs}, the
 * standalone client's path): the shared tests of {@link TwoReplicasTest} on the master Sentinel names, every call
 * served by it; and when that master dies and Sentinel promotes its replica, both instances follow it without a
 * restart, keeping the counts and turns written before. A fails open, B fails closed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SentinelStoreTest extends TwoReplicasTest {

    private static final int DATABASE = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private RedisServer master;
    private RedisServer replica;
    private RedisSentinel sentinel;

    @BeforeAll
    void start() throws Exception {
        RedisServer.cliOrSkip();
        master = RedisServer.startOrSkip();
        replica = RedisServer.startOrSkip(port -> List.of("--replicaof", "127.0.0.1", Integer.toString(master.port()),
                "--masteruser", RedisServer.USER, "--masterauth", RedisServer.PASSWORD));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!replica.cli("INFO", "replication").contains("master_link_status:up")) {
            assertTrue(System.nanoTime() < deadline, "the replica did not sync with its master");
            Thread.sleep(50);
        }
        sentinel = RedisSentinel.watching(master);
        // A: credentials apart from the URL; B: the password in it (it is the master's; the Sentinel wants none).
        String sentinelAt = "127.0.0.1:" + sentinel.port() + "/" + DATABASE + "#" + RedisSentinel.MASTER;
        a = instance("redis-sentinel://" + sentinelAt, "open", TIMEOUT, Map.of(
                "assistant.redis.username", RedisServer.USER, "assistant.redis.password", RedisServer.PASSWORD));
        b = instance("redis-sentinel://" + RedisServer.PASSWORD + "@" + sentinelAt, "closed", TIMEOUT, Map.of(
                "assistant.redis.username", RedisServer.USER));
    }

    /** The master until the failover, which runs last. */
    @Override
    void emptyRedis() throws Exception {
        master.cli("-n", Integer.toString(DATABASE), "FLUSHDB");
    }

    /** Keys on the master, in the URL's database. */
    @Override
    long keys() throws Exception {
        return Long.parseLong(master.cli("-n", Integer.toString(DATABASE), "DBSIZE").trim());
    }

    @Override
    List<AutoCloseable> redisProcesses() {
        return Arrays.asList(sentinel, replica, master);
    }

    @AfterEach
    void servedByRedisAlone() {
        assertServedByRedisAlone();
    }

    @Test
    @Order(Integer.MAX_VALUE) // last: it kills the master the other tests use
    void whenTheMasterDiesBothInstancesFollowSentinelToThePromotedReplica() throws Exception {
        HttpResponse<String> first = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        assertEquals(200, first.statusCode(), first.body());
        for (int i = 0; i <= INITECH_PER_HOUR && ask(a, "initech", INITECH_KEY, "How?").statusCode() == 200; i++) {
            assertTrue(i < INITECH_PER_HOUR, "initech's quota spent");
        }
        // The replica has every write before the master dies (replication is asynchronous otherwise).
        assertEquals("1", master.cli("WAIT", "1", "5000").trim());

        master.kill();
        sentinel.awaitMaster(replica.port(), Duration.ofSeconds(30));

        // B fails closed: 503 until Lettuce has reconnected to the master Sentinel names now, then the thread goes on.
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        HttpResponse<String> continued;
        do {
            continued = send(b, "acme", ServiceTest.ACME_KEY, ServiceTest.conversation(threadId(first),
                    threadKey(first), "How do I run the service?", "And after the failover?"));
            assertTrue(continued.statusCode() != 503 || System.nanoTime() < deadline,
                    "B did not reach the promoted replica: " + continued.body());
            Thread.sleep(continued.statusCode() == 503 ? 200 : 0);
        } while (continued.statusCode() == 503);
        assertEquals(200, continued.statusCode(), continued.body());
        assertEquals(2, awaitTurns(b, threadId(first), 2).turns().size(), "the turn from before the failover kept");

        // A, too, is back on Redis: the counter from before the failover still refuses initech.
        deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        HttpResponse<String> refused;
        do {
            refused = ask(a, "initech", INITECH_KEY, "How do I run it?");
            assertTrue(refused.statusCode() != 200 || System.nanoTime() < deadline,
                    "A did not reach the promoted replica: " + refused.body());
            Thread.sleep(refused.statusCode() == 200 ? 200 : 0);
        } while (refused.statusCode() == 200);
        AssistantEndpointTest.assertProblem(refused, 429, "rate_limited");
        served = outages(); // from here on both are served by the promoted replica alone (checked after the test)
        assertEquals(429, ask(a, "initech", INITECH_KEY, "How do I run it?").statusCode(), "counted on Redis");
    }
}
