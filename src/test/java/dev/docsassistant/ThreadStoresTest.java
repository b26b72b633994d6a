package dev.docsassistant;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.docsassistant.store.Redis;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.InMemoryThreadStore;
import dev.docsassistant.thread.RedisThreadStore;
import dev.docsassistant.thread.ThreadStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the docs team reads from the threads, the same in memory and on a real Redis. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThreadStoresTest {

    private RedisServer server;
    private Redis redis;

    @BeforeAll
    void startRedis() throws Exception {
        server = RedisServer.startOrSkip();
        redis = new Redis(server.url(0), "", "", Duration.ofSeconds(2));
    }

    @AfterAll
    void stopRedis() throws Exception {
        if (redis != null) {
            redis.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private ThreadStore store(String kind) {
        return kind.equals("memory") ? new InMemoryThreadStore(1 << 20, 60, 50, 1 << 20)
                : new RedisThreadStore(redis, 60, 50, 1 << 20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void feedbackRatesOneAnswerOfTheThreadAndReplacesItsEarlierRating(String kind) throws Exception {
        ThreadStore store = store(kind);
        String id = "thr_feedback_" + kind + System.nanoTime();
        store.save(new ChatThread(id, "acme", "acme", "fp-test", "hash", Instant.now(), List.of()));
        store.append(id, turn("msg-1", "How do I run it?", List.of()));
        store.append(id, turn("msg-2", "And the \"port\",\"feedback\":1?", List.of("https://docs.example/a")));

        Instant at = Instant.ofEpochMilli(1_700_000_000_000L);
        assertTrue(store.feedback(id, "msg-2", new ChatThread.Feedback("down", "Say \"how\", please", at)));
        assertTrue(store.feedback(id, "msg-1", new ChatThread.Feedback("down", null, at)));
        assertTrue(store.feedback(id, "msg-1", new ChatThread.Feedback("up", null, at)));
        assertFalse(store.feedback(id, "msg-3", new ChatThread.Feedback("up", null, at)));
        assertFalse(store.feedback("thr_missing", "msg-1", new ChatThread.Feedback("up", null, at)));

        List<ChatThread.Turn> turns = store.find(id).orElseThrow().turns();
        assertEquals(new ChatThread.Feedback("up", null, at), turns.get(0).feedback());
        assertEquals(List.of(), turns.get(0).sources());
        assertEquals(new ChatThread.Feedback("down", "Say \"how\", please", at), turns.get(1).feedback());
        assertEquals("And the \"port\",\"feedback\":1?", turns.get(1).question());
        if (kind.equals("redis")) {
            long stored = 0;
            for (String turn : server.cli("LRANGE", "thread:{" + id + "}:turns", "0", "-1").strip().split("\n")) {
                stored += turn.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            }
            assertEquals(Long.toString(stored), server.cli("HGET", "thread:{" + id + "}", "bytes").strip(),
                    "the hash still counts the bytes of the stored turns");
        }
        assertNull(store.find(id).orElseThrow().turns().get(0).feedback().comment());
    }

    static ChatThread.Turn turn(String messageId, String question, List<String> sources) {
        return new ChatThread.Turn(Instant.now(), messageId, question, "An answer.", sources, true, true, null);
    }
}
