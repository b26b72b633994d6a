package dev.docsassistant;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.docsassistant.store.Store;
import dev.docsassistant.thread.ChatThread;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances of the service sharing one real Redis (assistant.store=redis), as replicas do: the shared tests of
 * {@link TwoReplicasTest}, and here threads survive a restart, and when Redis is gone each instance degrades as
 * configured (A fails open, B fails closed), no request hangs, and both recover when Redis is back.
 */
class SharedStoreTest extends TwoReplicasTest {

    private static final int DATABASE = 3;

    private RedisServer redis;

    @BeforeAll
    void start() throws Exception {
        redis = RedisServer.startOrSkip();
        a = instance("open");
        b = instance("closed");
    }

    @Override
    void emptyRedis() {
        redis(RedisCommands::flushdb);
    }

    @Override
    long keys() {
        return redis(RedisCommands::dbsize);
    }

    @Override
    List<AutoCloseable> redisProcesses() {
        return Arrays.asList(redis);
    }

    @Test
    void threadsAndCountersSurviveARestart() throws Exception {
        HttpResponse<String> first = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");
        for (int i = 0; i < INITECH_PER_HOUR; i++) {
            assertEquals(200, ask(a, "initech", INITECH_KEY, "How do I run it?").statusCode());
        }

        a.close();
        a = instance("open");

        AssistantEndpointTest.assertProblem(ask(a, "initech", INITECH_KEY, "How do I run it?"), 429, "rate_limited");
        HttpResponse<String> continued = send(a, "acme", ServiceTest.ACME_KEY, ServiceTest.conversation(
                threadId(first), threadKey(first), "How do I run the service?", "And how do I change the port?"));
        assertEquals(200, continued.statusCode(), continued.body());
        assertEquals(threadId(first), threadId(continued));
        assertEquals(String.valueOf(IP_PER_DAY - INITECH_PER_HOUR - 3),
                continued.headers().firstValue("X-RateLimit-Remaining").orElseThrow(), "the client's count survived");
        ChatThread thread = awaitTurns(a, threadId(first), 2);
        assertEquals(List.of("How do I run the service?", "And how do I change the port?"),
                thread.turns().stream().map(ChatThread.Turn::question).toList());
    }

    @Test
    void whileRedisIsGoneAFailsOpenAndBFailsClosedWithoutHangingThenBothRecover() throws Exception {
        HttpResponse<String> started = ask(a, "acme", ServiceTest.ACME_KEY, "How do I run the service?");

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
                ServiceTest.conversation(threadId(started), threadKey(started), "Hi?")), 503, "store_unavailable");
        assertEquals(200, a.health(http).statusCode(), "failing open, it answers: ready, its store degraded");
        assertEquals(503, b.health(http).statusCode(), "failing closed, it refuses what needs Redis: not ready");

        redis.start();
        awaitRecovery();
        assertEquals(200, a.health(http).statusCode());
        assertEquals(200, b.health(http).statusCode());
    }

    private ServiceInstance instance(String whenUnreachable) throws Exception {
        Duration timeout = Duration.ofSeconds(1);
        if (whenUnreachable.equals("open")) { // A: credentials apart from the URL (masked in Camel's summary)
            return instance("redis://" + redis.address(DATABASE), whenUnreachable, timeout, Map.of(
                    "assistant.redis.username", RedisServer.USER, "assistant.redis.password", RedisServer.PASSWORD));
        }
        return instance(redis.url(DATABASE), whenUnreachable, timeout, Map.of()); // B: user and password in the URL
    }

    private <T> T redis(Function<RedisCommands<String, String>, T> command) {
        RedisClient client = RedisClient.create(redis.url(DATABASE));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return command.apply(connection.sync());
        } finally {
            client.shutdown();
        }
    }
}
