package dev.docsassistant;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.docsassistant.ratelimit.RateLimiter;
import dev.docsassistant.ratelimit.RedisRateLimiter;
import dev.docsassistant.store.Redis;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.RedisThreadStore;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo Redis's eviction settings (read from k8s/components/redis/redis.yaml) on a real redis-server with a
 * small maxmemory: a flood of new threads, written by the real thread store, evicts threads and leaves every quota
 * counter of the clients and organizations in use, so their quotas do not restart from zero because memory ran
 * short. LFU ranks keys by accesses: writing a new thread touches its hash several times (about seven commands), so
 * a counter touched fewer times than that (a client of one or two questions) may go first; a dozen is safe.
 */
class RedisEvictionTest {

    private static final Duration HOUR = Duration.ofHours(1);
    private static final int COUNTERS = 200;
    private static final long LIMIT = 1_000;

    @Test
    void newThreadsEvictThreadsNotQuotaCounters() throws Exception {
        List<String> eviction = evictionOptions();
        try (RedisServer server = RedisServer.startOrSkip(port -> eviction);
             Redis redis = new Redis(server.url(0), "", "", Duration.ofSeconds(5))) {
            RateLimiter quotas = new RedisRateLimiter(redis);
            RedisThreadStore threads = new RedisThreadStore(redis, 1440, 50, 262_144); // the shipped thread caps
            long[] counted = new long[COUNTERS];
            for (int c = 0; c < COUNTERS; c++) { // each organization or client has asked a dozen questions
                for (int i = 0; i < 12; i++) {
                    quotas.acquire("org:o" + c, LIMIT, HOUR);
                }
                counted[c] = 12;
            }
            String turn = "x".repeat(5_000);
            for (int t = 0; t < 12_000; t++) { // 60 MB of new threads into 20 MB, while requests go on
                ChatThread thread = new ChatThread("thr_" + t, "o1", "d", "fp", "hash", Instant.now(), List.of(
                        new ChatThread.Turn(Instant.now(), "msg_" + t, "q", turn, List.of(), true, true, null)));
                threads.save(thread);
                if (t % 60 == 0) {
                    int c = (t / 60) % COUNTERS;
                    quotas.acquire("org:o" + c, LIMIT, HOUR);
                    counted[c]++;
                }
            }
            long evicted = Long.parseLong(server.cli("INFO", "stats").lines().filter(l -> l.startsWith("evicted_keys:"))
                    .findFirst().orElseThrow().substring("evicted_keys:".length()).trim());
            assertTrue(evicted > 1_000, "memory ran short: " + evicted + " keys evicted");

            List<String> reset = new ArrayList<>();
            for (int c = 0; c < COUNTERS; c++) {
                long remaining = quotas.acquire("org:o" + c, LIMIT, HOUR).remaining();
                if (remaining != LIMIT - counted[c] - 1) {
                    reset.add("o" + c + " (remaining " + remaining + " after " + counted[c] + ")");
                }
            }
            assertEquals(List.of(), reset, "quota counters evicted");
        }
    }

    /** The manifest's eviction options, with a maxmemory small enough to fill here. */
    private static List<String> evictionOptions() throws Exception {
        String manifest = Files.readString(Path.of("k8s/components/redis/redis.yaml"));
        List<String> options = new ArrayList<>(List.of("--maxmemory", "20mb"));
        for (String option : List.of("--maxmemory-policy", "--lfu-log-factor")) {
            Matcher value = Pattern.compile("\"" + option + "\", \"([^\"]+)\"").matcher(manifest);
            assertTrue(value.find(), option + " in redis.yaml");
            options.addAll(List.of(option, value.group(1)));
        }
        return options;
    }
}
