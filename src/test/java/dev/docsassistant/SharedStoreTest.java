package dev.docsassistant;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.fasterxml.jackson.databind.JsonNode;
import dev.docsassistant.store.Store;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.ThreadStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances of the service sharing one real Redis (assistant.store=redis), as replicas do: quotas are exact in
 * total, threads continue on either instance and survive a restart, and when Redis is gone each instance degrades as
 * configured (A fails open, B fails closed), no request hangs, and both recover when Redis is back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedStoreTest {

    private static final String INITECH_KEY = "mint_dsc_initech_test";
    private static final int INITECH_PER_HOUR = 12; // tenants-shared.yaml
    private static final int IP_PER_DAY = 20;
    private static final int DATABASE = 3;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private RedisServer redis;
    private ServiceInstance a;
    private ServiceInstance b;

    @BeforeAll
    void start() throws Exception {
        redis = RedisServer.startOrSkip();
        a = instance("open");
        b = instance("closed");
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable started : new AutoCloseable[] {a, b, redis}) {
            if (started != null) {
                started.close();
            }
        }
    }

    @BeforeEach
    void emptyRedis() {
        redis(connection -> connection.sync().flushdb());
    }

    @Test
    void anOrganizationsLimitHoldsInTotalWhenRequestsAlternateBetweenInstances() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < INITECH_PER_HOUR + 4; i++) {
            HttpResponse<String> response = ask(i % 2 == 0 ? a : b, "initech", INITECH_KEY, "How do I run it?");
            statuses.add(response.statusCode());
            if (i == INITECH_PER_HOUR - 1) {
                assertEquals("0", response.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
            }
        }
        assertEquals(INITECH_PER_HOUR, count(statuses, 200), statuses.toString());
        assertEquals(4, count(statuses, 429), statuses.toString());
        assertEquals(List.of(429, 429, 429, 429), statuses.subList(INITECH_PER_HOUR, statuses.size()));
    }

    @Test
    void anOrganizationsLimitHoldsInTotalUnderConcurrentRequestsToBothInstances() throws Exception {
        List<Integer> statuses = concurrently(IP_PER_DAY, i -> ask(i % 2 == 0 ? a : b, "initech", INITECH_KEY,
                "How do I run it?").statusCode());
        assertEquals(INITECH_PER_HOUR, count(statuses, 200), statuses.toString());
        assertEquals(IP_PER_DAY - INITECH_PER_HOUR, count(statuses, 429), statuses.toString());
    }

    @Test
    void aClientsDailyLimitHoldsInTotalWhenRequestsAlternateBetweenInstances() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < IP_PER_DAY + 3; i++) {
            statuses.add(ask(i % 2 == 0 ? a : b, "acme", ServiceTest.ACME_KEY, "How do I run it?").statusCode());
        }
        assertEquals(IP_PER_DAY, count(statuses, 200), statuses.toString());
        assertEquals(List.of(429, 429, 429), statuses.subList(IP_PER_DAY, statuses.size()));
    }

    @Test
    void aClientsDailyLimitHoldsInTotalUnderConcurrentRequestsToBothInstances() throws Exception {
        List<Integer> statuses = concurrently(IP_PER_DAY + 10, i -> ask(i % 2 == 0 ? a : b, "acme",
                ServiceTest.ACME_KEY, "How do I run it?").statusCode());
        assertEquals(IP_PER_DAY, count(statuses, 200), statuses.toString());
        assertEquals(10, count(statuses, 429), statuses.toString());
    }

    @Test
    void aThreadStartedOnOneInstanceContinuesOnTheOtherWithEveryTurnKept() throws Exception {
        HttpResponse<String> first = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        assertEquals(200, first.statusCode(), first.body());
        String threadId = first.headers().firstValue("X-Thread-Id").orElseThrow();
        String threadKey = first.headers().firstValue("X-Thread-Key").orElseThrow();

        HttpResponse<String> second = send(b, "acme", ServiceTest.ACME_KEY, ServiceTest.conversation(threadId,
                threadKey, "How do I run the service?", "And how do I change the port?"));
        assertEquals(200, second.statusCode(), second.body());
        assertEquals(threadId, second.headers().firstValue("X-Thread-Id").orElseThrow());
        HttpResponse<String> wrongKey = send(b, "acme", ServiceTest.ACME_KEY,
                ServiceTest.conversation(threadId, "tk_wrong", "Hi?"));
        AssistantEndpointTest.assertProblem(wrongKey, 404, "thread_not_found");

        // Two replicas appending to one thread at once: every turn is kept.
        int more = 8;
        List<Integer> statuses = concurrently(more, i -> send(i % 2 == 0 ? a : b, "acme", ServiceTest.ACME_KEY,
                ServiceTest.conversation(threadId, threadKey, "How do I run the service?", "Question " + i))
                .statusCode());
        assertEquals(more, count(statuses, 200), statuses.toString());

        for (ServiceInstance instance : List.of(a, b)) {
            ChatThread thread = awaitTurns(instance, threadId, 2 + more);
            assertEquals(2 + more, thread.turns().size(), "every turn, as each instance reads it");
            assertEquals("How do I run the service?", thread.turns().get(0).question());
            assertEquals("And how do I change the port?", thread.turns().get(1).question());
            assertTrue(thread.turns().get(1).answer().contains("camel.server.port"), thread.turns().get(1).answer());
            assertFalse(thread.turns().get(1).sources().isEmpty());
            assertEquals("acme", thread.organizationId());
            assertEquals("fp-test", thread.fp());
        }
        redis(connection -> assertTrue(connection.sync().dbsize() > 0, "kept in the configured database"));
    }

    @Test
    void threadsAndCountersSurviveARestart() throws Exception {
        HttpResponse<String> first = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        String threadId = first.headers().firstValue("X-Thread-Id").orElseThrow();
        String threadKey = first.headers().firstValue("X-Thread-Key").orElseThrow();
        for (int i = 0; i < INITECH_PER_HOUR; i++) {
            assertEquals(200, ask(a, "initech", INITECH_KEY, "How do I run it?").statusCode());
        }

        a.close();
        a = instance("open");

        AssistantEndpointTest.assertProblem(ask(a, "initech", INITECH_KEY, "How do I run it?"), 429, "rate_limited");
        HttpResponse<String> continued = send(a, "acme", ServiceTest.ACME_KEY, ServiceTest.conversation(threadId,
                threadKey, "How do I run the service?", "And how do I change the port?"));
        assertEquals(200, continued.statusCode(), continued.body());
        assertEquals(threadId, continued.headers().firstValue("X-Thread-Id").orElseThrow());
        assertEquals(String.valueOf(IP_PER_DAY - INITECH_PER_HOUR - 3),
                continued.headers().firstValue("X-RateLimit-Remaining").orElseThrow(), "the client's count survived");
        ChatThread thread = awaitTurns(a, threadId, 2);
        assertEquals(List.of("How do I run the service?", "And how do I change the port?"),
                thread.turns().stream().map(ChatThread.Turn::question).toList());
    }

    @Test
    void whileRedisIsGoneAFailsOpenAndBFailsClosedWithoutHangingThenBothRecover() throws Exception {
        HttpResponse<String> started = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        String threadId = started.headers().firstValue("X-Thread-Id").orElseThrow();
        String threadKey = started.headers().firstValue("X-Thread-Key").orElseThrow();

        // A hung Redis (accepts, never answers): the command timeout bounds every request.
        redis.pause();
        try {
            assertDegraded();
        } finally {
            redis.resume();
        }
        awaitRecovery();

        // A crashed Redis: connections drop; commands are refused at once while Lettuce reconnects.
        redis.kill();
        assertDegraded();
        long before = a.bean("store", Store.class).outage().fallbacks();
        // Failing open, A counts on its own: the organization's limit still holds on this instance.
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < INITECH_PER_HOUR + 2; i++) {
            statuses.add(ask(a, "initech", INITECH_KEY, "How do I run it?").statusCode());
        }
        assertEquals(INITECH_PER_HOUR, count(statuses, 200), statuses.toString());
        assertTrue(a.bean("store", Store.class).outage().fallbacks() >= before + statuses.size(), "counted");
        // A thread kept on Redis cannot be read now: 503, not a misleading 404.
        AssistantEndpointTest.assertProblem(send(a, "acme", ServiceTest.ACME_KEY,
                ServiceTest.conversation(threadId, threadKey, "Hi?")), 503, "store_unavailable");
        assertEquals(503, a.health(http).statusCode(), "not ready while its store is gone");

        redis.start();
        awaitRecovery();
        assertEquals(200, a.health(http).statusCode());
        assertEquals(200, b.health(http).statusCode());
    }

    /** A (open) answers from its own counters and starts a local thread; B (closed) says 503 + Retry-After. */
    private void assertDegraded() throws Exception {
        HttpResponse<String> open = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        assertEquals(200, open.statusCode(), open.body());
        String localThread = open.headers().firstValue("X-Thread-Id").orElseThrow();
        String localKey = open.headers().firstValue("X-Thread-Key").orElseThrow();
        assertEquals(200, send(a, "acme", ServiceTest.ACME_KEY, ServiceTest.conversation(localThread, localKey,
                "How do I run the service?", "And the port?")).statusCode(), "a thread started alone continues here");

        HttpResponse<String> closed = ask(b, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        JsonNode problem = AssistantEndpointTest.assertProblem(closed, 503, "store_unavailable");
        assertEquals("5", closed.headers().firstValue("Retry-After").orElseThrow(), problem.toString());
        assertEquals(1, b.bean("store", Store.class).outage().refusals() > 0 ? 1 : 0);
    }

    /** The thread once it has {@code turns} turns: a turn is recorded just after its response has ended. */
    static ChatThread awaitTurns(ServiceInstance instance, String threadId, int turns) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        ChatThread thread = instance.bean("threadStore", ThreadStore.class).find(threadId).orElseThrow();
        while (thread.turns().size() < turns && System.nanoTime() < deadline) {
            Thread.sleep(20);
            thread = instance.bean("threadStore", ThreadStore.class).find(threadId).orElseThrow();
        }
        return thread;
    }

    private void awaitRecovery() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (ask(b, "acme", ServiceTest.ACME_KEY, "How do I run it?").statusCode() != 200) {
            assertTrue(System.nanoTime() < deadline, "B did not recover once Redis was back");
            Thread.sleep(100);
        }
    }

    private ServiceInstance instance(String whenUnreachable) throws Exception {
        Map<String, String> properties;
        if (whenUnreachable.equals("open")) { // A: credentials apart from the URL (masked in Camel's summary)
            properties = ServiceInstance.onRedis("redis://" + redis.address(DATABASE), whenUnreachable, IP_PER_DAY);
            properties.put("assistant.redis.username", RedisServer.USER);
            properties.put("assistant.redis.password", RedisServer.PASSWORD);
        } else { // B: user and password in the URL
            properties = ServiceInstance.onRedis(redis.url(DATABASE), whenUnreachable, IP_PER_DAY);
        }
        properties.put("assistant.redis.timeout-ms", "1000");
        return ServiceInstance.start(properties, http);
    }

    private HttpResponse<String> ask(ServiceInstance instance, String domain, String key, String question)
            throws Exception {
        return send(instance, domain, key, ServiceTest.question(question));
    }

    private HttpResponse<String> send(ServiceInstance instance, String domain, String key, String body)
            throws Exception {
        return instance.message(http, domain, key, body);
    }

    interface Call {
        int status(int i) throws Exception;
    }

    static List<Integer> concurrently(int n, Call call) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(n);
        try {
            List<Callable<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                calls.add(() -> call.status(index));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> status : clients.invokeAll(calls)) {
                statuses.add(status.get());
            }
            return statuses;
        } finally {
            clients.shutdownNow();
        }
    }

    static long count(List<Integer> statuses, int status) {
        return statuses.stream().filter(s -> s == status).count();
    }

    private interface RedisWork {
        void run(StatefulRedisConnection<String, String> connection);
    }

    private void redis(RedisWork work) {
        RedisClient client = RedisClient.create(redis.url(DATABASE));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            work.run(connection);
        } finally {
            client.shutdown();
        }
    }
}
