package dev.docsassistant;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.docsassistant.store.Store;
import dev.docsassistant.thread.ChatThread;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static dev.docsassistant.SharedStoreTest.awaitTurns;
import static dev.docsassistant.SharedStoreTest.concurrently;
import static dev.docsassistant.SharedStoreTest.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances of the service sharing a real three-master Redis Cluster ({@code redis-cluster://}): quotas are
 * exact in total and a thread continues on either instance, as on a single Redis (see {@link SharedStoreTest}). Every
 * call must be served by the Cluster itself: a script whose keys spanned two slots would fail with CROSSSLOT, so
 * each test also checks that neither instance fell back to its own state (A fails open) or refused (B fails closed).
 * With every node killed they degrade so, without hanging, and recover once the Cluster is back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterStoreTest {

    private static final String INITECH_KEY = "mint_dsc_initech_test";
    private static final int INITECH_PER_HOUR = 12; // tenants-shared.yaml
    private static final int IP_PER_DAY = 20;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private RedisCluster cluster;
    private ServiceInstance a;
    private ServiceInstance b;
    /** A's fallbacks and B's refusals when the Cluster last served every call. */
    private List<Long> served;

    @BeforeAll
    void start() throws Exception {
        cluster = RedisCluster.startOrSkip();
        // A: two seed nodes, credentials apart from the URL; B: the third node only, credentials in the URL.
        a = instance("redis-cluster://" + cluster.seeds(0, 2), "open", Map.of(
                "assistant.redis.username", RedisServer.USER, "assistant.redis.password", RedisServer.PASSWORD));
        b = instance("redis-cluster://" + RedisServer.USER + ":" + RedisServer.PASSWORD + "@" + cluster.seeds(2, 3),
                "closed", Map.of());
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable started : new AutoCloseable[] {a, b, cluster}) {
            if (started != null) {
                started.close();
            }
        }
    }

    @BeforeEach
    void emptyCluster() throws Exception {
        for (RedisServer node : cluster.nodes()) {
            node.cli("FLUSHALL");
        }
        served = outages();
    }

    @AfterEach
    void servedByTheClusterAlone() throws Exception {
        assertEquals(served, outages(), "no call fell back to an instance's own state (A) or was refused (B)");
        long keys = 0;
        for (RedisServer node : cluster.nodes()) {
            keys += Long.parseLong(node.cli("DBSIZE").trim());
        }
        assertTrue(keys > 0, "kept on the Cluster");
    }

    @Test
    void anOrganizationsLimitHoldsInTotalWhenRequestsAlternateBetweenInstances() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < INITECH_PER_HOUR + 3; i++) {
            statuses.add(ask(i % 2 == 0 ? a : b, "initech", INITECH_KEY, "How do I run it?").statusCode());
        }
        assertEquals(INITECH_PER_HOUR, count(statuses, 200), statuses.toString());
        assertEquals(List.of(429, 429, 429), statuses.subList(INITECH_PER_HOUR, statuses.size()));
    }

    @Test
    void aClientsDailyLimitHoldsInTotalUnderConcurrentRequestsToBothInstances() throws Exception {
        List<Integer> statuses = concurrently(IP_PER_DAY + 6, i -> ask(i % 2 == 0 ? a : b, "acme",
                ServiceTest.ACME_KEY, "How do I run it?").statusCode());
        assertEquals(IP_PER_DAY, count(statuses, 200), statuses.toString());
        assertEquals(6, count(statuses, 429), statuses.toString());
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

        int more = 4;
        List<Integer> statuses = concurrently(more, i -> send(i % 2 == 0 ? a : b, "acme", ServiceTest.ACME_KEY,
                ServiceTest.conversation(threadId, threadKey, "How do I run the service?", "Question " + i))
                .statusCode());
        assertEquals(more, count(statuses, 200), statuses.toString());

        for (ServiceInstance instance : List.of(a, b)) {
            ChatThread thread = awaitTurns(instance, threadId, 2 + more);
            assertEquals(2 + more, thread.turns().size(), "every turn, as each instance reads it");
            assertEquals("And how do I change the port?", thread.turns().get(1).question());
            assertEquals("acme", thread.organizationId());
        }
    }

    @Test
    void threadsSpreadOverTheMastersEachWithItsKeysOnOneNode() throws Exception {
        List<String> threadIds = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            ServiceInstance first = i % 2 == 0 ? a : b;
            HttpResponse<String> started = ask(first, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
            assertEquals(200, started.statusCode(), started.body());
            String threadId = started.headers().firstValue("X-Thread-Id").orElseThrow();
            HttpResponse<String> continued = send(first == a ? b : a, "acme", ServiceTest.ACME_KEY,
                    ServiceTest.conversation(threadId, started.headers().firstValue("X-Thread-Key").orElseThrow(),
                            "How do I run the service?", "And the port?"));
            assertEquals(200, continued.statusCode(), continued.body());
            awaitTurns(a, threadId, 2);
            threadIds.add(threadId);
        }
        Set<RedisServer> holders = new HashSet<>();
        for (String threadId : threadIds) {
            List<RedisServer> owners = new ArrayList<>();
            for (RedisServer node : cluster.nodes()) {
                // The node owning the keys' slot counts them; the others answer MOVED (CROSSSLOT if they had two).
                if (node.cli("EXISTS", "thread:{" + threadId + "}", "thread:{" + threadId + "}:turns").trim()
                        .equals("2")) {
                    owners.add(node);
                }
            }
            assertEquals(1, owners.size(), "both keys of " + threadId + " on one node");
            holders.addAll(owners);
        }
        // Nine random thread ids all on one of three masters: 1 run in 6561. 18 requests: within the IP quota.
        assertTrue(holders.size() > 1, "threads kept on " + holders.size() + " of the Cluster's 3 masters");
    }

    @Test
    void whileTheClusterIsDownAFailsOpenAndBFailsClosedWithoutHangingThenBothRecover() throws Exception {
        for (RedisServer node : cluster.nodes()) {
            node.kill();
        }
        // Every request has a deadline (ServiceInstance#message): none hangs on the Cluster's connections.
        HttpResponse<String> open = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        assertEquals(200, open.statusCode(), open.body());
        HttpResponse<String> closed = ask(b, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        AssistantEndpointTest.assertProblem(closed, 503, "store_unavailable");
        assertEquals("5", closed.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(outages().get(0) > served.get(0) && outages().get(1) > served.get(1), outages().toString());

        cluster.restart();
        for (ServiceInstance instance : List.of(a, b)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            List<Long> before;
            do {
                assertTrue(System.nanoTime() < deadline, "did not recover once the Cluster was back");
                Thread.sleep(100);
                before = outages();
            } while (ask(instance, "acme", ServiceTest.ACME_KEY, "How do I run it?").statusCode() != 200
                    || !outages().equals(before));
        }
        served = outages();
        HttpResponse<String> first = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        assertEquals(200, send(b, "acme", ServiceTest.ACME_KEY, ServiceTest.conversation(
                first.headers().firstValue("X-Thread-Id").orElseThrow(),
                first.headers().firstValue("X-Thread-Key").orElseThrow(), "How do I run the service?", "And then?"))
                .statusCode(), "a thread started on A after the outage continues on B");
    }

    /** A's fallbacks to its own state (it fails open) and B's refusals (it fails closed). */
    private List<Long> outages() {
        return List.of(a.bean("store", Store.class).outage().fallbacks(),
                b.bean("store", Store.class).outage().refusals());
    }

    private ServiceInstance instance(String url, String whenUnreachable, Map<String, String> more) throws Exception {
        Map<String, String> properties = ServiceInstance.onRedis(url, whenUnreachable, IP_PER_DAY);
        properties.putAll(more);
        properties.put("assistant.redis.timeout-ms", "2000");
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
}
