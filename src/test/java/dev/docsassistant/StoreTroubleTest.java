package dev.docsassistant;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.docsassistant.ground.Secrets;
import dev.docsassistant.store.Store;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.ThreadStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two replicas on a real {@code redis-server} (both failing open) in trouble: erasure finds every thread whatever
 * touched it last, and reaches the threads a replica kept alone during an outage; an erasure that cannot reach Redis
 * says so; a frozen Redis costs one probe at a time, not one timeout per request; a Redis refusing writes (out of
 * memory, {@code noeviction}) or stopped under load leaves both ready (failing open), degraded, and counts its
 * failures.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoreTroubleTest {

    private static final String ADMIN_KEY = "mint_adm_acme_secret_0123456789";
    private static final int DATABASE = 6;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    /** What the class started, closed last first. */
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private RedisServer redis;
    private ServiceInstance a;
    private ServiceInstance b;

    @BeforeAll
    void start() throws Exception {
        started.push(redis = RedisServer.startOrSkip());
        started.push(a = replica());
        started.push(b = replica());
    }

    @AfterAll
    void stop() throws Exception {
        while (!started.isEmpty()) {
            started.pop().close();
        }
    }

    private ServiceInstance replica() throws Exception {
        Map<String, String> properties = ServiceInstance.onRedis(redis.url(DATABASE), "open", 100_000);
        properties.put("assistant.tenants-file", "src/test/resources/tenants-admin.yaml");
        properties.put("assistant.ratelimit.ip-per-minute", "0");
        // the frozen-Redis test asks as fast as the machine answers: the hour's quota must not be what ends it
        properties.put("assistant.ratelimit.org-per-hour", "100000000");
        properties.put("assistant.threads.erasure-check-seconds", "1");
        return ServiceInstance.start(properties, http);
    }

    /**
     * A thread last spoken in two days ago (past the one-day TTL) but rated since: the rating kept it alive, so
     * other threads' activity must not drop it from the index, and the export and the erasure find it.
     */
    @Test
    void aThreadKeptAliveByARatingIsExportedAndErasedLongAfterItWasLastSpokenIn() throws Exception {
        String fp = "fp-rated-" + Secrets.id(6);
        Instant twoDaysAgo = Instant.now().minus(Duration.ofDays(2));
        String threadId = "thr_" + Secrets.token(16);
        threads(a).save(new ChatThread(threadId, "acme", "acme", fp, Secrets.sha256("tk_x"), twoDaysAgo,
                List.of(new ChatThread.Turn(twoDaysAgo, "msg-old", "How do I run it?", "Like this.", List.of(), true,
                        true, null))));

        HttpResponse<String> rated = post(b, "/v1/assistant/acme/feedback", ServiceTest.ACME_KEY,
                "{\"fp\":\"" + fp + "\",\"threadId\":\"" + threadId + "\",\"messageId\":\"msg-old\",\"rating\":\"up\"}");
        assertEquals(200, rated.statusCode(), rated.body());
        assertEquals(200, b.message(http, "acme", ServiceTest.ACME_KEY, ServiceTest.question("Another reader?"))
                .statusCode(), "another thread is indexed meanwhile");

        String export = send(a, "GET", "/v1/admin/acme/threads?fp=" + fp).body();
        assertTrue(export.contains(threadId), "exported: " + export);
        HttpResponse<String> erased = send(b, "DELETE", "/v1/admin/acme/threads?fp=" + fp);
        assertEquals("{\"erased\":1}", erased.body().replace(" ", ""));
        assertTrue(threads(a).find(threadId).isEmpty(), "gone");
    }

    /**
     * A thread started on A while Redis was down lives on A alone; erasing its reader on B (once Redis is back)
     * erases it on A too. While Redis is down, an erasure answers 503, not a count that may have missed threads.
     */
    @Test
    void aThreadKeptByAReplicaDuringAnOutageIsErasedThereWhenAnotherReplicaIsAsked() throws Exception {
        String fp = "fp-outage-" + Secrets.id(6);
        redis.kill();
        HttpResponse<String> alone;
        try {
            alone = a.message(http, "acme", ServiceTest.ACME_KEY, ServiceTest.question("How do I run it?")
                    .replace("\"fp-test\"", "\"" + fp + "\""));
            assertEquals(200, alone.statusCode(), alone.body());
            AssistantEndpointTest.assertProblem(send(b, "DELETE", "/v1/admin/acme/threads?fp=" + fp), 503,
                    "store_unavailable");
        } finally {
            redis.start();
        }
        String threadId = alone.headers().firstValue("X-Thread-Id").orElseThrow();
        assertTrue(threads(a).find(threadId).isPresent(), "kept by A alone");
        awaitReady(a);
        awaitReady(b);

        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        HttpResponse<String> erased = send(b, "DELETE", "/v1/admin/acme/threads?fp=" + fp);
        while (erased.statusCode() == 503) { // B probes Redis again a second after its last failure
            assertTrue(System.nanoTime() < deadline, "B did not erase once Redis was back");
            Thread.sleep(200);
            erased = send(b, "DELETE", "/v1/admin/acme/threads?fp=" + fp);
        }
        assertEquals(200, erased.statusCode(), erased.body());
        while (threads(a).find(threadId).isPresent()) {
            assertTrue(System.nanoTime() < deadline, "A did not erase the thread it kept alone");
            Thread.sleep(100);
        }
        HttpResponse<String> next = a.message(http, "acme", ServiceTest.ACME_KEY, ServiceTest.conversation(threadId,
                null, "And the port?").replace("\"fp-test\"", "\"" + fp + "\""));
        assertNotEquals(threadId, next.headers().firstValue("X-Thread-Id").orElseThrow(), "a new thread");
    }

    /**
     * Redis frozen (SIGSTOP) for four seconds under eight clients that search without pause: after the first
     * timeouts, one call a second probes it and every other request goes on without it. Each call that reached
     * the frozen Redis failed, so the failures count the requests that waited.
     */
    @Test
    void aFrozenRedisCostsOneProbeAtATimeNotOneTimeoutPerRequest() throws Exception {
        int clients = 8;
        int frozenSeconds = 4;
        awaitReady(a);
        long before = a.bean("store", Store.class).outage().failures();
        AtomicBoolean going = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<Integer>> served = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                served.add(pool.submit(() -> {
                    int answered = 0;
                    while (going.get()) {
                        HttpResponse<String> found = post(a, "/v1/search/acme", ServiceTest.ACME_KEY,
                                "{\"query\":\"port\"}");
                        assertEquals(200, found.statusCode(), found.body());
                        answered++;
                    }
                    return answered;
                }));
            }
            Thread.sleep(300);
            redis.pause();
            try {
                Thread.sleep(frozenSeconds * 1000L);
            } finally {
                redis.resume();
            }
            going.set(false);
            for (Future<Integer> client : served) {
                assertTrue(client.get() > 0);
            }
        } finally {
            going.set(false);
            pool.shutdownNow();
        }
        long failed = a.bean("store", Store.class).outage().failures() - before;
        assertTrue(failed >= 1 && failed <= clients + frozenSeconds + 3,
                failed + " calls waited on the frozen Redis: the requests in flight, then one probe a second");
    }

    /**
     * Redis at maxmemory with noeviction answers PING but refuses writes: failing open, the instance answers on its
     * own, so it stays ready with its store degraded, and the failures are counted.
     */
    @Test
    void readinessStaysUpDegradedWhileRedisRefusesWritesAndComesBack() throws Exception {
        awaitReady(a);
        long before = a.bean("store", Store.class).outage().failures();
        redis.cli("CONFIG", "SET", "maxmemory-policy", "noeviction");
        redis.cli("CONFIG", "SET", "maxmemory", "1");
        try {
            assertEquals("degraded", storeState(a), "every write fails");
            assertEquals(200, a.health(http).statusCode(), "ready: failing open, it answers on its own");
            assertEquals(200, a.message(http, "acme", ServiceTest.ACME_KEY, ServiceTest.question("Still there?"))
                    .statusCode(), "failing open, it answers on its own");
            assertTrue(a.bean("store", Store.class).outage().failures() > before, "failures counted");
            String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + ServiceTest.managementPort(a.context()) + "/observe/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.lines().anyMatch(line -> line.startsWith("assistant_store_failures_total")
                    && !line.endsWith(" 0.0")), "the metric counts them");
        } finally {
            redis.cli("CONFIG", "SET", "maxmemory", "0");
        }
        assertEquals("ok", storeState(a));
    }

    /**
     * Redis stopped while both replicas answer a steady load: failing open, neither is withdrawn (readiness 200 at
     * every look), answers go on, health says the store is degraded; Redis back, it says ok again.
     */
    @Test
    void aRedisStoppedUnderLoadWithdrawsNoReplica() throws Exception {
        awaitReady(a);
        awaitReady(b);
        AtomicBoolean loading = new AtomicBoolean(true);
        ExecutorService clients = Executors.newFixedThreadPool(4);
        List<Future<List<Integer>>> load = new ArrayList<>();
        for (ServiceInstance replica : List.of(a, b, a, b)) {
            load.add(clients.submit(() -> {
                List<Integer> statuses = new ArrayList<>();
                while (loading.get()) {
                    statuses.add(replica.message(http, "acme", ServiceTest.ACME_KEY,
                            ServiceTest.question("How do I run it?")).statusCode());
                }
                return statuses;
            }));
        }
        List<Integer> ready = new ArrayList<>();
        try {
            Thread.sleep(500);
            redis.kill();
            long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
            while (System.nanoTime() < until) {
                ready.add(a.health(http).statusCode());
                ready.add(b.health(http).statusCode());
                Thread.sleep(200);
            }
            assertEquals("degraded", storeState(a));
            assertEquals("degraded", storeState(b));
        } finally {
            loading.set(false);
            clients.shutdown();
            redis.start();
        }
        assertTrue(ready.stream().allMatch(status -> status == 200), "ready at every look: " + ready);
        List<Integer> statuses = new ArrayList<>();
        for (Future<List<Integer>> client : load) {
            statuses.addAll(client.get());
        }
        assertTrue(statuses.size() > 8 && statuses.stream().allMatch(status -> status == 200),
                "answers went on: " + statuses);
        awaitReady(a);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!storeState(a).equals("ok")) {
            assertTrue(System.nanoTime() < deadline, "the store ok again once Redis is back");
            Thread.sleep(200);
        }
    }

    /** The store check's {@code state} detail: ok, degraded or down. */
    private String storeState(ServiceInstance instance) throws Exception {
        String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ServiceTest.managementPort(
                instance.context()) + "/observe/health?exposureLevel=full&data=true")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return HealthTest.check(ServiceTest.JSON.readTree(body), "store").path("data").path("state").asText();
    }

    private static ThreadStore threads(ServiceInstance instance) {
        return instance.bean("threadStore", ThreadStore.class);
    }

    private void awaitReady(ServiceInstance instance) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (instance.health(http).statusCode() != 200) {
            assertTrue(System.nanoTime() < deadline, "not ready again once Redis was back");
            Thread.sleep(100);
        }
    }

    private HttpResponse<String> post(ServiceInstance instance, String path, String key, String body)
            throws Exception {
        return http.send(HttpRequest.newBuilder(instance.uri(path)).timeout(Duration.ofSeconds(15))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + key)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> send(ServiceInstance instance, String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(instance.uri(path)).timeout(Duration.ofSeconds(15))
                .method(method, HttpRequest.BodyPublishers.noBody()).header("Authorization", "Bearer " + ADMIN_KEY)
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
