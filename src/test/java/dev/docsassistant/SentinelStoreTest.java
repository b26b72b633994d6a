package dev.docsassistant;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.docsassistant.store.Store;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import static dev.docsassistant.SharedStoreTest.awaitTurns;
import static dev.docsassistant.SharedStoreTest.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances of the service finding their Redis through a real Sentinel ({@code redis-sentinel://…#docs}, the
 * standalone client's path): quotas are exact in total and threads continue across instances, on the master Sentinel
 * names; and when that master dies and Sentinel promotes its replica, both instances follow it without a restart,
 * keeping the counts and turns written before. A fails open, B fails closed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SentinelStoreTest {

    private static final String INITECH_KEY = "mint_dsc_initech_test";
    private static final int INITECH_PER_HOUR = 12; // tenants-shared.yaml
    private static final int DATABASE = 3;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private RedisServer master;
    private RedisServer replica;
    private RedisSentinel sentinel;
    private ServiceInstance a;
    private ServiceInstance b;

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
        a = instance("redis-sentinel://" + sentinelAt, "open", Map.of(
                "assistant.redis.username", RedisServer.USER, "assistant.redis.password", RedisServer.PASSWORD));
        b = instance("redis-sentinel://" + RedisServer.PASSWORD + "@" + sentinelAt, "closed", Map.of(
                "assistant.redis.username", RedisServer.USER));
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable started : new AutoCloseable[] {a, b, sentinel, replica, master}) {
            if (started != null) {
                started.close();
            }
        }
    }

    @Test
    @Order(1)
    void limitsAndThreadsAreSharedThroughTheMasterSentinelNames() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < INITECH_PER_HOUR + 2; i++) {
            statuses.add(ask(i % 2 == 0 ? a : b, "initech", INITECH_KEY, "How do I run it?").statusCode());
        }
        assertEquals(INITECH_PER_HOUR, count(statuses, 200), statuses.toString());
        assertEquals(List.of(429, 429), statuses.subList(INITECH_PER_HOUR, statuses.size()));

        HttpResponse<String> first = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        assertEquals(200, first.statusCode(), first.body());
        HttpResponse<String> second = send(b, ServiceTest.conversation(threadId(first), threadKey(first),
                "How do I run the service?", "And how do I change the port?"));
        assertEquals(200, second.statusCode(), second.body());
        assertEquals(2, awaitTurns(a, threadId(first), 2).turns().size());

        assertTrue(Long.parseLong(master.cli("-n", Integer.toString(DATABASE), "DBSIZE").trim()) > 0,
                "kept on the master, in the URL's database");
        assertServedByRedisAlone();
    }

    @Test
    @Order(2)
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
            continued = send(b, ServiceTest.conversation(threadId(first), threadKey(first),
                    "How do I run the service?", "And after the failover?"));
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
        long before = a.bean("store", Store.class).outage().fallbacks();
        assertEquals(429, ask(a, "initech", INITECH_KEY, "How do I run it?").statusCode());
        assertEquals(before, a.bean("store", Store.class).outage().fallbacks(), "counted on Redis, not alone");
    }

    private void assertServedByRedisAlone() {
        for (ServiceInstance instance : List.of(a, b)) {
            Store store = instance.bean("store", Store.class);
            assertEquals(0, store.outage().fallbacks(), "no call fell back to the instance's own state");
            assertEquals(0, store.outage().refusals(), "no call was refused");
        }
    }

    private ServiceInstance instance(String url, String whenUnreachable, Map<String, String> more) throws Exception {
        Map<String, String> properties = ServiceInstance.onRedis(url, whenUnreachable, 1000);
        properties.putAll(more);
        properties.put("assistant.redis.timeout-ms", "2000");
        return ServiceInstance.start(properties, http);
    }

    private static String threadId(HttpResponse<String> response) {
        return response.headers().firstValue("X-Thread-Id").orElseThrow();
    }

    private static String threadKey(HttpResponse<String> response) {
        return response.headers().firstValue("X-Thread-Key").orElseThrow();
    }

    private HttpResponse<String> ask(ServiceInstance instance, String domain, String key, String question)
            throws Exception {
        return instance.message(http, domain, key, ServiceTest.question(question));
    }

    private HttpResponse<String> send(ServiceInstance instance, String body) throws Exception {
        return instance.message(http, "acme", ServiceTest.ACME_KEY, body);
    }
}
