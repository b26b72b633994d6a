package dev.docsassistant;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.InMemoryThreadStore;
import dev.docsassistant.thread.RedisThreadStore;
import dev.docsassistant.thread.ThreadStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A thread keeps its newest turns only, as many and as heavy as assistant.threads.max-turns and max-bytes allow, in
 * memory and on a real Redis (trimmed by the script that appends); continuing a thread on Redis checks whose it is
 * without reading its turns.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThreadCapsTest {

    private static final int MAX_TURNS = 3;
    /** Fits three short turns, in memory (their heap) and on Redis (their JSON), but not one 6,000-char question. */
    private static final long MAX_BYTES = 5_000;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    @RegisterExtension
    static final RedisServer.PerClass REDIS = new RedisServer.PerClass();

    @Test
    void inMemoryAThreadKeepsItsNewestTurnsWithinBothCaps() {
        assertCapped(new InMemoryThreadStore(1 << 20, 60, MAX_TURNS, MAX_BYTES));
    }

    /** 100 threads of one 16,000-character question each (~32 KB of heap) in 1 MiB: at most 32 are kept. */
    @Test
    void inMemoryTheThreadsTogetherStayWithinTheirBytes() {
        InMemoryThreadStore store = new InMemoryThreadStore(1 << 20, 60, MAX_TURNS, 1 << 20);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String id = "thr_memory_" + i;
            store.save(new ChatThread(id, "acme", "acme", "fp-test", "hash", Instant.now(), List.of()));
            store.append(id, turn(Integer.toString(i).repeat(16_000 / Integer.toString(i).length())));
            ids.add(id);
        }
        long kept = ids.stream().filter(id -> store.find(id).isPresent()).count();
        assertTrue(kept > 0 && kept <= 32, kept + " threads kept");
    }

    @Test
    void onRedisAThreadKeepsItsNewestTurnsWithinBothCaps() throws Exception {
        RedisThreadStore store = new RedisThreadStore(REDIS.client(), 60, MAX_TURNS, MAX_BYTES);
        String id = assertCapped(store);

        store.append(id, turn("q6"));
        store.append(id, turn("q7"));
        assertEquals("2", REDIS.server().cli("LLEN", "thread:{" + id + "}:turns").strip());
        long stored = 0;
        for (String turn : REDIS.server().cli("LRANGE", "thread:{" + id + "}:turns", "0", "-1").strip().split("\n")) {
            stored += turn.getBytes(StandardCharsets.UTF_8).length;
        }
        assertEquals(Long.toString(stored), REDIS.server().cli("HGET", "thread:{" + id + "}", "bytes").strip(),
                "the hash counts the bytes of the turns the list holds");
    }

    /** Five turns to a thread capped at three: the newest three; then one too heavy alone: none. */
    private String assertCapped(ThreadStore store) {
        String id = "thr_caps_" + System.nanoTime();
        store.save(new ChatThread(id, "acme", "acme", "fp-test", "hash", Instant.now(), List.of()));
        for (int i = 1; i <= 5; i++) {
            store.append(id, turn("q" + i));
        }
        assertEquals(List.of("q3", "q4", "q5"), questions(store, id), "the oldest turns are dropped");

        store.append(id, turn("q".repeat(6_000)));
        assertEquals(List.of(), questions(store, id), "a turn heavier than the byte cap pushes out every turn");
        assertEquals(new ChatThread.Owner("acme", "acme", "fp-test", "hash"), store.owner(id).orElseThrow(),
                "the thread itself is kept");
        return id;
    }

    /** On Redis, continuing a thread reads its owner (a small hash) and never its turns (LRANGE). */
    @Test
    void continuingAThreadOnRedisReadsNoTurnsAndTheServiceKeepsMaxTurns() throws Exception {
        Map<String, String> properties = ServiceInstance.onRedis(REDIS.server().url(1), "closed", 1000);
        properties.put("assistant.threads.max-turns", "2");
        try (ServiceInstance service = ServiceInstance.start(properties, http)) {
            HttpResponse<String> first = service.message(http, "acme", ServiceTest.ACME_KEY,
                    ServiceTest.question("How do I run the service?"));
            assertEquals(200, first.statusCode(), first.body());
            String threadId = first.headers().firstValue("X-Thread-Id").orElseThrow();
            String threadKey = first.headers().firstValue("X-Thread-Key").orElseThrow();
            String turns = "thread:{" + threadId + "}:turns";

            for (String question : List.of("And how do I change the port?", "Where do the logs go?")) {
                REDIS.server().cli("-n", "1", "CONFIG", "RESETSTAT");
                HttpResponse<String> next = service.message(http, "acme", ServiceTest.ACME_KEY,
                        ServiceTest.conversation(threadId, threadKey, "How do I run the service?", question));
                assertEquals(200, next.statusCode(), next.body());
                assertEquals(threadId, next.headers().firstValue("X-Thread-Id").orElseThrow());
                String commands = REDIS.server().cli("INFO", "commandstats");
                assertTrue(commands.contains("cmdstat_hgetall"), "the owner was read on Redis: " + commands);
                assertFalse(commands.contains("cmdstat_lrange"), "no turn was read: " + commands);
            }

            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!REDIS.server().cli("-n", "1", "LINDEX", turns, "0").contains("change the port")
                    && System.nanoTime() < deadline) {
                Thread.sleep(20); // a turn is recorded just after its answer has ended
            }
            assertEquals("2", REDIS.server().cli("-n", "1", "LLEN", turns).strip(), "the first turn was dropped");
            assertTrue(REDIS.server().cli("-n", "1", "LINDEX", turns, "0").contains("change the port"));
        }
    }

    private static ChatThread.Turn turn(String question) {
        return new ChatThread.Turn(Instant.now(), "msg-" + question.hashCode(), question, "An answer.", List.of("https://docs.example/a"),
                true, true, null);
    }

    private static List<String> questions(ThreadStore store, String id) {
        return store.find(id).orElseThrow().turns().stream().map(ChatThread.Turn::question).toList();
    }
}
