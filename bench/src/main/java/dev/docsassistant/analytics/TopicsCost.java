package dev.docsassistant.analytics;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Time and memory to group questions into topics: {@code n} questions (the English page descriptions and headings of
 * ../shared/corpus, cycled, each with its number so no two are the same text) written to a fresh embedded store, then
 * grouped by {@link Topics#group} runs until none is left, as the background route would. Prints the wall and CPU
 * time, the time a question, the heap's peak above the baseline (sampled every 50 ms) and the process's peak
 * resident memory. In the analytics package for the store's package-private writer. Usage:
 * {@code java -Xmx256m -cp target/docs-assistant.jar:bench/target/bench.jar dev.docsassistant.analytics.TopicsCost
 * 10000 [../shared/corpus]}.
 */
public final class TopicsCost {

    private TopicsCost() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        List<String> texts = texts(Path.of(args.length > 1 ? args[1] : "../shared/corpus"));
        Path dir = Files.createTempDirectory("topics-cost");
        try (Records records = new Records("", null, null, dir.toString(), 2, 5000)) {
            Instant at = Instant.now();
            List<Records.Queued> batch = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String question = texts.get(i % texts.size()) + (i < texts.size() ? "" : " (" + i + ")");
                batch.add(new Records.Queued("turn-" + i, at, new Records.Turn("acme", "acme", "thr_" + i, "msg_" + i,
                        null, at, at, question, "…", "answer", "[]", "answered", "api", null, null)));
                if (batch.size() == 1000 || i == n - 1) {
                    records.write(batch);
                    batch.clear();
                }
            }
            Topics topics = new Topics(records, null, true, 2000, 0.5, 0.2, 500);
            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            System.gc();
            long baseline = memory.getHeapMemoryUsage().getUsed();
            long[] peak = {baseline};
            Thread sampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    peak[0] = Math.max(peak[0], memory.getHeapMemoryUsage().getUsed());
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.setDaemon(true);
            sampler.start();
            long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            long start = System.nanoTime();
            int grouped = 0;
            for (int run; (run = topics.group()) > 0;) {
                grouped += run;
                if (grouped % 20_000 == 0) {
                    System.out.printf("%d grouped: %.1f s wall, %.1f s CPU, heap peak %.0f MB%n", grouped,
                            (System.nanoTime() - start) / 1e9, (ManagementFactory.getThreadMXBean()
                                    .getCurrentThreadCpuTime() - cpu) / 1e9, (peak[0] - baseline) / 1e6);
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuSeconds = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu) / 1e9;
            sampler.interrupt();
            long groups;
            try (var connection = records.connection();
                    var count = connection.prepareStatement("SELECT COUNT(*) FROM topic_groups");
                    var rs = count.executeQuery()) {
                rs.next();
                groups = rs.getLong(1);
            }
            System.out.printf("%d questions (%d distinct texts) grouped: %.1f s wall, %.1f s CPU, %.2f ms CPU a "
                    + "question; %d groups; heap peak %.0f MB above a %.0f MB baseline; peak RSS %d MB%n", grouped,
                    texts.size(), seconds, cpuSeconds, 1000 * cpuSeconds / grouped, groups,
                    (peak[0] - baseline) / 1e6, baseline / 1e6, rssPeakKib() / 1024);
        }
    }

    /** The English descriptions and headings of three words or more, in a fixed order, each once. */
    private static List<String> texts(Path corpus) throws Exception {
        Pattern text = Pattern.compile("^(?:description:\\s*[\"']*(.+?)[\"']*|#{2,3}\\s+(.+))\\s*$", Pattern.MULTILINE);
        Set<String> texts = new LinkedHashSet<>();
        try (Stream<Path> files = Files.walk(corpus)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".mdx")
                    && !p.toString().matches(".*/(zh|ja|es|fr)/.*")).sorted().toList()) {
                Matcher matcher = text.matcher(Files.readString(file));
                while (matcher.find()) {
                    String found = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
                    if (found.split(" ").length >= 3) {
                        texts.add(found);
                    }
                }
            }
        }
        if (texts.isEmpty()) {
            throw new IllegalArgumentException("no .mdx pages in " + corpus);
        }
        return new ArrayList<>(texts);
    }

    private static long rssPeakKib() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        return -1;
    }
}
