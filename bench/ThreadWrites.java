import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import dev.docsassistant.store.Redis;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.RedisThreadStore;
import dev.docsassistant.thread.ThreadStore;

/**
 * The thread store's Redis work per message, as the message route does it: a new thread (save), or a continuation
 * (owner, then find for the history), then the question kept before the model is called (ask, where the build has
 * it), then the answer (append). Prints the µs per message spent before the model (on the first token's path) and
 * in all, over MESSAGES messages (half new threads, half continuations). The same source runs against any build
 * (ask is called only where ThreadStore has it), so bench/thread-writes.sh pairs two builds round by round.
 * Usage: java -cp CLASSPATH bench/ThreadWrites.java REDIS_URL [MESSAGES]
 */
public class ThreadWrites {

    public static void main(String[] args) throws Exception {
        int messages = args.length > 1 ? Integer.parseInt(args[1]) : 4_000;
        Method ask = Arrays.stream(ThreadStore.class.getMethods()).filter(m -> m.getName().equals("ask")).findFirst()
                .orElse(null);
        try (Redis redis = new Redis(args[0], "", "", Duration.ofSeconds(5))) {
            RedisThreadStore store = new RedisThreadStore(redis, 24 * 60, 50, 262_144);
            String answer = "Set camel.server.port to the port you want, then restart. ".repeat(14);
            String run = Long.toString(System.nanoTime(), 36);
            for (int warm = 0; warm < 2; warm++) { // the first pass warms the JIT and the connection
                long beforeModel = 0;
                long start = System.nanoTime();
                for (int m = 0; m < messages; m++) {
                    long t0 = System.nanoTime();
                    String id = "thr_w" + run + warm + "_" + (m / 2);
                    if (m % 2 == 0) {
                        store.save(new ChatThread(id, "acme", "acme", "fp-" + (m % 100), "hash", Instant.now(),
                                List.of()));
                    } else {
                        store.owner(id);
                        store.find(id);
                    }
                    String messageId = "msg-" + m;
                    String question = "How do I change the port, question " + m + "?";
                    if (ask != null) {
                        ask.invoke(store, id, new ChatThread.Turn(Instant.now(), messageId, question, "", List.of(),
                                false, true, null));
                    }
                    beforeModel += System.nanoTime() - t0;
                    store.append(id, new ChatThread.Turn(Instant.now(), messageId, question, answer,
                            List.of("https://docs.example/configuration/properties"), true, true, null));
                }
                if (warm == 1) {
                    System.out.printf("%.1f %.1f%n", beforeModel / 1e3 / messages,
                            (System.nanoTime() - start) / 1e3 / messages);
                }
            }
        }
    }
}
