package dev.docsassistant;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.InMemoryThreadStore;
import dev.docsassistant.thread.RedisThreadStore;
import dev.docsassistant.thread.ThreadStore;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the docs team reads from the threads, the same in memory and on a real Redis. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ThreadStoresTest {

    @RegisterExtension
    static final RedisServer.PerClass REDIS = new RedisServer.PerClass();

    private ThreadStore store(String kind) {
        return kind.equals("memory") ? new InMemoryThreadStore(1 << 20, 60, 50, 1 << 20)
                : new RedisThreadStore(REDIS.client(), 60, 50, 1 << 20);
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
            assertBytesCounted(id);
        }
        assertNull(store.find(id).orElseThrow().turns().get(0).feedback().comment());
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void aThreadIsDeletedAtTheEndOfItsRetentionHoweverMuchUsed(String kind) throws Exception {
        Duration retention = Duration.ofMillis(1_500);
        ThreadStore store = kind.equals("memory") ? new InMemoryThreadStore(1 << 20, 60, 50, 1 << 20, retention)
                : new RedisThreadStore(REDIS.client(), 60, 50, 1 << 20, retention);
        String id = "thr_retention_" + kind + System.nanoTime();
        store.save(new ChatThread(id, "acme", "acme", "fp-test", "hash", Instant.now(), List.of()));
        store.append(id, turn("msg-1", "How do I run it?", List.of()));
        assertTrue(store.find(id).isPresent(), "a TTL of an hour, a retention of 1.5 s");
        if (kind.equals("redis")) {
            for (String key : List.of("thread:{" + id + "}", "thread:{" + id + "}:turns")) {
                long ttl = Long.parseLong(REDIS.server().cli("PTTL", key).strip());
                assertTrue(ttl > 0 && ttl <= 1_500, key + " lives " + ttl + " ms, not the hour of its TTL");
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (store.owner(id).isPresent() && System.nanoTime() < deadline) { // each read would extend a TTL
            Thread.sleep(100);
        }
        assertTrue(store.find(id).isEmpty(), "deleted at its retention deadline, used or not");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void erasureRemovesTheReadersThreadsOnTheDomainOnly(String kind) {
        ThreadStore store = store(kind);
        String domain = "erase-" + kind + System.nanoTime();
        for (String[] thread : new String[][] {{"a1", "fp-a", domain}, {"a2", "fp-a", domain}, {"b1", "fp-b", domain},
                {"a3", "fp-a", "elsewhere" + domain}}) {
            store.save(new ChatThread("thr_" + thread[0] + domain, "acme", thread[2], thread[1], "hash", Instant.now(),
                    List.of()));
        }
        assertEquals(2, store.erase(domain, "fp-a"));
        assertTrue(store.find("thr_a1" + domain).isEmpty() && store.find("thr_a2" + domain).isEmpty());
        assertTrue(store.find("thr_b1" + domain).isPresent(), "another reader's");
        assertTrue(store.find("thr_a3" + domain).isPresent(), "the reader's on another domain");
        List<String> left = new java.util.ArrayList<>();
        store.export(domain, Instant.EPOCH, Instant.now().plusSeconds(60), null, 10, t -> left.add(t.id()));
        assertEquals(List.of("thr_b1" + domain), left);
    }

    /** A question kept as it arrives is replaced by its answer, in its place, whatever was asked meanwhile. */
    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void aQuestionRecordedOnArrivalIsAnsweredInItsPlace(String kind) throws Exception {
        ThreadStore store = store(kind);
        String id = "thr_asked_" + kind + System.nanoTime();
        store.save(new ChatThread(id, "acme", "acme", "fp-test", "hash", Instant.now(), List.of()));
        store.ask(id, question("msg-a", "First?"));
        store.ask(id, question("msg-b", "Second?"));
        assertEquals(List.of("", ""), answers(store, id), "two questions, no answers yet");

        store.append(id, turn("msg-a", "First?", List.of("https://docs.example/a")));
        assertEquals(List.of("An answer.", ""), answers(store, id));
        store.append(id, turn("msg-b", "Second?", List.of()));
        store.append(id, turn("msg-c", "A question that was not kept?", List.of()));
        ChatThread thread = store.find(id).orElseThrow();
        assertEquals(List.of("First?", "Second?", "A question that was not kept?"),
                thread.turns().stream().map(ChatThread.Turn::question).toList());
        assertEquals(List.of("An answer.", "An answer.", "An answer."), answers(store, id));
        assertTrue(thread.turns().stream().allMatch(ChatThread.Turn::complete));
        if (kind.equals("redis")) {
            assertBytesCounted(id);
        }
    }

    /**
     * On Redis, a thread leaves its domain's index only once Redis no longer has it: of two threads whose keys may
     * have expired by their recorded expiry, the one Redis dropped leaves the index at the next use of the domain,
     * the one still kept (extended meanwhile) stays, with its expiry told again.
     */
    @org.junit.jupiter.api.Test
    void onRedisTheIndexDropsOnlyTheThreadsRedisNoLongerHas() throws Exception {
        RedisThreadStore store = new RedisThreadStore(REDIS.client(), 60, 50, 1 << 20);
        String domain = "dom_" + System.nanoTime();
        String expiries = "{threads-by-time:" + domain + "}:expiry";
        for (String id : List.of("thr_gone", "thr_kept")) {
            store.save(new ChatThread(id + domain, "acme", domain, "fp-test", "hash", Instant.now(), List.of()));
        }
        for (String id : List.of("thr_gone", "thr_kept")) {
            REDIS.server().cli("ZADD", expiries, "0", id + domain); // as if its recorded expiry had passed
        }
        REDIS.server().cli("DEL", "thread:{thr_gone" + domain + "}"); // as Redis expires it

        store.save(new ChatThread("thr_new" + domain, "acme", domain, "fp-test", "hash", Instant.now(), List.of()));

        assertEquals(List.of("thr_kept" + domain, "thr_new" + domain),
                List.of(REDIS.server().cli("ZRANGE", "threads-by-time:" + domain, "0", "-1").strip().split("\n")));
        assertTrue(Long.parseLong(REDIS.server().cli("ZSCORE", expiries, "thr_kept" + domain).strip())
                > System.currentTimeMillis(), "its expiry told again");
        assertEquals("", REDIS.server().cli("ZSCORE", expiries, "thr_gone" + domain).strip());
    }

    /** On Redis, the thread's hash counts the bytes of the turns its list holds. */
    private static void assertBytesCounted(String id) throws Exception {
        long stored = 0;
        for (String turn : REDIS.server().cli("LRANGE", "thread:{" + id + "}:turns", "0", "-1").strip().split("\n")) {
            stored += turn.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
        assertEquals(Long.toString(stored), REDIS.server().cli("HGET", "thread:{" + id + "}", "bytes").strip(),
                "the hash counts the bytes of the stored turns");
    }

    private static ChatThread.Turn question(String messageId, String question) {
        return new ChatThread.Turn(Instant.now(), messageId, question, "", List.of(), false, true, null);
    }

    private static List<String> answers(ThreadStore store, String id) {
        return store.find(id).orElseThrow().turns().stream().map(ChatThread.Turn::answer).toList();
    }

    static ChatThread.Turn turn(String messageId, String question, List<String> sources) {
        return new ChatThread.Turn(Instant.now(), messageId, question, "An answer.", sources, true, true, null);
    }
}
