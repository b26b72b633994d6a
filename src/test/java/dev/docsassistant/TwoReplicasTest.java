package dev.docsassistant;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances of the service sharing one real Redis, as replicas do, whatever its topology: an organization's and a
 * client's quotas are exact in total whether requests alternate between the instances or reach both at once, and a
 * thread started on one continues on the other with every turn kept. A subclass starts its topology's Redis and the
 * two instances in a {@code @BeforeAll} (A fails open, B fails closed; see {@link #instance}), skipping where Redis is
 * not installed, and adds the tests only its topology needs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TwoReplicasTest {

    static final String INITECH_KEY = "mint_dsc_initech_test";
    static final int INITECH_PER_HOUR = 12; // tenants-shared.yaml
    static final int IP_PER_DAY = 20;

    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    /** Fails open: serves from its own counters and threads while Redis is unreachable. */
    ServiceInstance a;
    /** Fails closed: answers 503 while Redis is unreachable. */
    ServiceInstance b;
    /** A's fallbacks and B's refusals when Redis last served every call (see {@link #assertServedByRedisAlone}). */
    List<Long> served;

    /** Empties the instances' Redis (or their database in it) before each test. */
    abstract void emptyRedis() throws Exception;

    /** How many keys the instances' Redis holds, where they keep them. */
    abstract long keys() throws Exception;

    /** The topology's Redis processes (null where not started), stopped after the instances, in this order. */
    abstract List<AutoCloseable> redisProcesses();

    @BeforeEach
    void startEmpty() throws Exception {
        // Quotas count in fixed hours: a test that spends initech's hour must not straddle the next one.
        long intoTheHour = Instant.now().getEpochSecond() % 3600;
        if (intoTheHour > 3600 - 90) {
            Thread.sleep((3600 - intoTheHour + 1) * 1000);
        }
        emptyRedis();
        served = outages();
    }

    @AfterAll
    void stop() throws Exception {
        List<AutoCloseable> started = new ArrayList<>(Arrays.asList(a, b));
        started.addAll(redisProcesses());
        for (AutoCloseable resource : started) {
            if (resource != null) {
                resource.close();
            }
        }
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
        String threadId = threadId(first);
        String threadKey = threadKey(first);

        HttpResponse<String> second = send(b, "acme", ServiceTest.ACME_KEY, ServiceTest.conversation(threadId,
                threadKey, "How do I run the service?", "And how do I change the port?"));
        assertEquals(200, second.statusCode(), second.body());
        assertEquals(threadId, threadId(second));
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
        assertTrue(keys() > 0, "kept on the instances' Redis, in its configured database");
    }

    /**
     * While Redis is unreachable: A (open) answers from its own counters and continues a thread started alone; B
     * (closed) says 503 + Retry-After; each counts what it did.
     */
    void assertDegraded() throws Exception {
        List<Long> before = outages();
        HttpResponse<String> open = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        assertEquals(200, open.statusCode(), open.body());
        assertEquals(200, send(a, "acme", ServiceTest.ACME_KEY, ServiceTest.conversation(threadId(open),
                threadKey(open), "How do I run the service?", "And the port?")).statusCode(),
                "a thread started alone continues here");

        HttpResponse<String> closed = ask(b, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        JsonNode problem = AssistantEndpointTest.assertProblem(closed, 503, "store_unavailable");
        assertEquals("5", closed.headers().firstValue("Retry-After").orElseThrow(), problem.toString());
        List<Long> after = outages();
        assertTrue(after.get(0) > before.get(0) && after.get(1) > before.get(1), before + " then " + after);
    }

    /** Since {@link #served} was noted, no call fell back to A's own state or was refused by B. */
    void assertServedByRedisAlone() {
        assertEquals(served, outages(), "no call fell back to an instance's own state (A) or was refused (B)");
    }

    /** Once Redis is back: each instance answers again, served by Redis (no more fallbacks or refusals). */
    void awaitRecovery() throws Exception {
        for (ServiceInstance instance : List.of(a, b)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            List<Long> before;
            do {
                assertTrue(System.nanoTime() < deadline, "did not recover once Redis was back");
                Thread.sleep(100);
                before = outages();
            } while (ask(instance, "acme", ServiceTest.ACME_KEY, "How do I run it?").statusCode() != 200
                    || !outages().equals(before));
        }
    }

    /** A's fallbacks to its own state (it fails open) and B's refusals (it fails closed): the only ones they make. */
    List<Long> outages() {
        return List.of(a.bean("store", Store.class).outage().fallbacks(),
                b.bean("store", Store.class).outage().refusals());
    }

    /**
     * Starts an instance on the Redis at {@code redisUrl} with the per-IP quota these tests count on, the given
     * behaviour while Redis is unreachable and command timeout, and {@code more} properties (credentials, say).
     */
    ServiceInstance instance(String redisUrl, String whenUnreachable, Duration timeout, Map<String, String> more)
            throws Exception {
        Map<String, String> properties = ServiceInstance.onRedis(redisUrl, whenUnreachable, IP_PER_DAY);
        properties.putAll(more);
        properties.put("assistant.redis.timeout-ms", Long.toString(timeout.toMillis()));
        return ServiceInstance.start(properties, http);
    }

    HttpResponse<String> ask(ServiceInstance instance, String domain, String key, String question)
            throws Exception {
        return send(instance, domain, key, ServiceTest.question(question));
    }

    HttpResponse<String> send(ServiceInstance instance, String domain, String key, String body) throws Exception {
        return instance.message(http, domain, key, body);
    }

    static String threadId(HttpResponse<String> response) {
        return response.headers().firstValue("X-Thread-Id").orElseThrow();
    }

    static String threadKey(HttpResponse<String> response) {
        return response.headers().firstValue("X-Thread-Key").orElseThrow();
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

    interface Call {
        int status(int i) throws Exception;
    }

    /** Makes {@code n} calls at once, each on a thread of its own; their statuses in call order. */
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
}
