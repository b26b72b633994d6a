package dev.docsassistant;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

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
        // The per-address limit before authentication cannot be read either: B refuses a wrong key with 503 rather
        // than let it try uncounted, A counts it on its own.
        RawHttp.Response closed = badKey(b, "127.0.0.10");
        assertEquals(503, closed.status(), closed.body());
        assertTrue(closed.body().contains("\"code\":\"store_unavailable\""), closed.body());
        assertEquals(401, badKey(a, "127.0.0.10").status());
        assertEquals(200, a.health(http).statusCode(), "failing open, it answers: ready, its store degraded");
        assertEquals(503, b.health(http).statusCode(), "failing closed, it refuses what needs Redis: not ready");

        redis.start();
        awaitRecovery();
        assertEquals(200, a.health(http).statusCode());
        assertEquals(200, b.health(http).statusCode());
    }

    @Test
    void failedAuthenticationsOnOneReplicaRefuseTheAddressOnTheOther() throws Exception {
        String address = "127.0.0.9";
        for (int i = 0; i < 20; i++) { // assistant.ratelimit.ip-auth-failures' default
            assertEquals(401, badKey(i % 2 == 0 ? a : b, address).status());
        }
        for (ServiceInstance instance : List.of(a, b)) {
            RawHttp.Response refused = badKey(instance, address);
            assertEquals(429, refused.status(), refused.body());
            assertEquals("ip-auth-failures", refused.header("X-RateLimit-Scope"));
        }
        assertEquals(200, ask(b, "acme", ServiceTest.ACME_KEY, "How do I run it?").statusCode(), "another address");
    }

    @Test
    void pastTheLimitAReplicaThatNeverSawTheAddressFailLetsOneMoreFailureInAndAnswersIt429() throws Exception {
        String address = "127.0.0.12";
        for (int i = 0; i < 20; i++) { // assistant.ratelimit.ip-auth-failures' default, all on A
            assertEquals(401, badKey(a, address).status());
        }
        // B checks what it has seen (nothing): its first request reaches the key, and its count, past the limit, is
        // answered as the check refuses, nothing telling the key was wrong; then B has seen it and refuses at once
        for (int i = 0; i < 3; i++) {
            for (ServiceInstance instance : List.of(b, a)) {
                RawHttp.Response refused = badKey(instance, address);
                assertEquals(429, refused.status(), refused.body());
                assertEquals("ip-auth-failures", refused.header("X-RateLimit-Scope"));
                assertEquals(null, refused.header("WWW-Authenticate"), "no word of the key");
            }
        }
        assertEquals(429, RawHttp.send(address, b.uri("/").getPort(), RawHttp.head("GET", "/v1/widget/config",
                "Authorization: Bearer " + ServiceTest.ACME_KEY), new byte[0]).status(), "the right key too");
        List<String> counters = redis(commands -> commands.keys("totals:{auth-failures:" + address + "}:*"));
        assertEquals(1, counters.size(), counters.toString());
        long failures = Long.parseLong(redis(commands -> commands.get(counters.get(0))));
        assertTrue(failures <= 20 + 1, "one failure past the limit per replica that had not seen it: " + failures);
    }

    @Test
    void anAddressWithoutFailuresCostsNoRoundTripBeforeItsKey() throws Exception {
        byte[] body = "{\"query\":\"install\"}".getBytes(StandardCharsets.UTF_8);
        int searches = 10;
        long before = scripts();
        for (int i = 0; i < searches; i++) {
            RawHttp.Response served = RawHttp.send("127.0.0.11", b.uri("/").getPort(), RawHttp.head("POST",
                    "/v1/search/acme", "Authorization: Bearer " + ServiceTest.ACME_KEY,
                    "Content-Type: application/json", "Content-Length: " + body.length), body);
            assertEquals(200, served.status(), served.body());
        }
        // the quotas' own: the address's bucket, its day, its open place and the organization's (each taken and
        // given back), the organization's hour; the failed authentications, none
        assertEquals(7L * searches, settledScripts() - before);
    }

    /** Lua scripts Redis ran (EVAL, EVALSHA): one round trip each, as the service sends nothing else per request. */
    private long scripts() {
        String stats = redis(commands -> commands.info("commandstats"));
        return Pattern.compile("cmdstat_eval(?:sha)?:calls=(\\d+)").matcher(stats).results()
                .mapToLong(found -> Long.parseLong(found.group(1))).sum();
    }

    /** {@link #scripts()} once the leases' releases, sent after the answers, are in. */
    private long settledScripts() throws InterruptedException {
        long now = scripts();
        for (long last = -1; now != last; now = scripts()) {
            last = now;
            Thread.sleep(300);
        }
        return now;
    }

    /** A search with a wrong key from {@code address}, its body announced and never sent. */
    private static RawHttp.Response badKey(ServiceInstance instance, String address) throws IOException {
        return RawHttp.send(address, instance.uri("/").getPort(), RawHttp.head("POST", "/v1/search/acme",
                "Authorization: Bearer mint_dsc_wrong", "Content-Type: application/json", "Content-Length: 900000"),
                new byte[0]);
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
