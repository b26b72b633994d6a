package dev.docsassistant;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances of the service sharing a real three-master Redis Cluster ({@code redis-cluster://}): the shared tests
 * of {@link TwoReplicasTest}, as on a single Redis. Every call must be served by the Cluster itself: a script whose
 * keys spanned two slots would fail with CROSSSLOT, so each test also checks that neither instance fell back to its
 * own state (A fails open) or refused (B fails closed). With every node killed they degrade so, without hanging, and
 * recover once the Cluster is back.
 */
class ClusterStoreTest extends TwoReplicasTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private RedisCluster cluster;

    @BeforeAll
    void start() throws Exception {
        cluster = RedisCluster.startOrSkip();
        // A: two seed nodes, credentials apart from the URL; B: the third node only, credentials in the URL.
        a = instance("redis-cluster://" + cluster.seeds(0, 2), "open", TIMEOUT, Map.of(
                "assistant.redis.username", RedisServer.USER, "assistant.redis.password", RedisServer.PASSWORD));
        b = instance("redis-cluster://" + RedisServer.USER + ":" + RedisServer.PASSWORD + "@" + cluster.seeds(2, 3),
                "closed", TIMEOUT, Map.of());
    }

    @Override
    void emptyRedis() throws Exception {
        for (RedisServer node : cluster.nodes()) {
            node.cli("FLUSHALL");
        }
    }

    @Override
    long keys() throws Exception {
        long keys = 0;
        for (RedisServer node : cluster.nodes()) {
            keys += Long.parseLong(node.cli("DBSIZE").trim());
        }
        return keys;
    }

    @Override
    List<AutoCloseable> redisProcesses() {
        return Arrays.asList(cluster);
    }

    @AfterEach
    void servedByTheClusterAlone() throws Exception {
        assertServedByRedisAlone();
        assertTrue(keys() > 0, "kept on the Cluster");
    }

    @Test
    void threadsSpreadOverTheMastersEachWithItsKeysOnOneNode() throws Exception {
        List<String> threadIds = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            ServiceInstance first = i % 2 == 0 ? a : b;
            HttpResponse<String> started = ask(first, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
            assertEquals(200, started.statusCode(), started.body());
            HttpResponse<String> continued = send(first == a ? b : a, "acme", ServiceTest.ACME_KEY,
                    ServiceTest.conversation(threadId(started), threadKey(started),
                            "How do I run the service?", "And the port?"));
            assertEquals(200, continued.statusCode(), continued.body());
            awaitTurns(a, threadId(started), 2);
            threadIds.add(threadId(started));
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
        assertDegraded();

        cluster.restart();
        awaitRecovery();
        served = outages();
        HttpResponse<String> first = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        assertEquals(200, send(b, "acme", ServiceTest.ACME_KEY, ServiceTest.conversation(threadId(first),
                threadKey(first), "How do I run the service?", "And then?")).statusCode(),
                "a thread started on A after the outage continues on B");
    }
}
