import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.config.TenantsFile;
import dev.docsassistant.store.Redis;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.RedisThreadStore;

/**
 * Would a Caffeine cache in front of the per-request key lookups pay off? Times, per call, the bearer-key lookup
 * (SHA-256 + map) and a thread lookup on Redis against a Caffeine hit for the same thing. Run by bench/with-redis.sh.
 */
public class StoreLookups {

    public static void main(String[] args) throws Exception {
        String key = "mint_dsc_acme_test";
        Tenants tenants = Tenants.load("src/test/resources/tenants.yaml", "", "mint_dsc_");
        Cache<String, TenantsFile.Organization> orgs = Caffeine.newBuilder().maximumSize(10_000).build();
        orgs.put(key, tenants.organizationForKey(key));
        report("bearer key -> organization: SHA-256 + map", 200_000, () -> tenants.organizationForKey(key));
        report("bearer key -> organization: Caffeine hit", 200_000, () -> orgs.getIfPresent(key));

        try (Redis redis = new Redis(args[0], "", "", Duration.ofSeconds(2))) {
            RedisThreadStore threads = new RedisThreadStore(redis, 60);
            for (int turns : new int[] {1, 10}) {
                ChatThread thread = new ChatThread("thr_bench" + turns, "acme", "acme", "fp", "0".repeat(64),
                        Instant.now(), List.of());
                threads.save(thread);
                for (int i = 0; i < turns; i++) {
                    threads.append(thread.id(), new ChatThread.Turn(Instant.now(), "How do I change the port?",
                            "x".repeat(1500), List.of("/configuration/properties", "/run")));
                }
                Cache<String, ChatThread> cached = Caffeine.newBuilder().maximumSize(10_000).build();
                cached.put(thread.id(), threads.find(thread.id()).orElseThrow());
                report("thread (" + turns + " turns) on Redis, loopback", 5_000, () -> threads.find(thread.id()));
                report("thread (" + turns + " turns) Caffeine hit", 200_000, () -> cached.getIfPresent(thread.id()));
            }
        }
    }

    /** Median and p99 of per-call times over 5 rounds, after a warm-up round. */
    private static void report(String what, int calls, Supplier<?> lookup) {
        long[] perCall = new long[5];
        for (int round = -1; round < perCall.length; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                if (lookup.get() == null) {
                    throw new IllegalStateException(what + " found nothing");
                }
            }
            if (round >= 0) {
                perCall[round] = (System.nanoTime() - start) / calls;
            }
        }
        Arrays.sort(perCall);
        System.out.printf("%-50s %10.2f µs per call (rounds %.2f–%.2f)%n", what, perCall[2] / 1000.0,
                perCall[0] / 1000.0, perCall[4] / 1000.0);
    }
}
