import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.ground.Json;
import dev.docsassistant.store.Redis;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.RedisThreadStore;
import dev.docsassistant.thread.ThreadView;

/**
 * Exporting recorded turns streams in bounded memory: records THREADS threads of TURNS turns on Redis (about 1 KB
 * of question and answer a turn), then exports them all as the admin endpoint does (ThreadStore.export, each thread
 * a ThreadView serialized to an NDJSON line, here into a byte counter), and reports the time and the peak heap used
 * during the export (the heap pools' peak, reset after a GC just before). Run by bench/with-redis.sh (-Xmx64m).
 */
public class ThreadExport {

    static final int THREADS = 20_000;
    static final int TURNS = 5;

    public static void main(String[] args) throws Exception {
        try (Redis redis = new Redis(args[0], "", "", Duration.ofSeconds(5))) {
            RedisThreadStore store = new RedisThreadStore(redis, 24 * 60, 50, 1 << 20);
            String answer = "Set camel.server.port to the port you want, then restart. ".repeat(14);
            long fill = System.nanoTime();
            Instant start = Instant.now();
            for (int t = 0; t < THREADS; t++) {
                String id = "thr_bench_" + t;
                store.save(new ChatThread(id, "acme", "acme", "fp-" + (t % 1000), "hash", start, List.of()));
                for (int n = 0; n < TURNS; n++) {
                    store.append(id, new ChatThread.Turn(Instant.now(), "msg-" + t + "-" + n,
                            "How do I change the port, question " + n + " of thread " + t + "?", answer,
                            List.of("https://docs.example/configuration/properties"), true, n % 7 != 0, null));
                }
            }
            System.out.printf("recorded %,d turns in %,d threads in %.1f s%n", THREADS * TURNS, THREADS,
                    (System.nanoTime() - fill) / 1e9);

            ObjectMapper json = Json.mapper();
            long[] bytes = {0};
            int[] threads = {0};
            int[] turns = {0};
            OutputStream sink = OutputStream.nullOutputStream();
            System.gc();
            List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(pool -> pool.getType() == MemoryType.HEAP).toList();
            heap.forEach(MemoryPoolMXBean::resetPeakUsage);
            long export = System.nanoTime();
            store.export("acme", Instant.EPOCH, Instant.now().plusSeconds(60), null, Integer.MAX_VALUE, thread -> {
                try {
                    byte[] line = json.writeValueAsBytes(ThreadView.of(thread));
                    sink.write(line);
                    bytes[0] += line.length + 1;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                threads[0]++;
                turns[0] += thread.turns().size();
                return true;
            });
            double seconds = (System.nanoTime() - export) / 1e9;
            long peak = heap.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
            System.out.printf("exported %,d turns in %,d threads (%,d MB of NDJSON) in %.1f s (%,.0f turns/s);"
                    + " peak heap during the export %,d MB (-Xmx %,d MB)%n", turns[0], threads[0], bytes[0] >> 20,
                    seconds, turns[0] / seconds, peak >> 20, Runtime.getRuntime().maxMemory() >> 20);
        }
    }
}
