package dev.docsassistant.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

/**
 * The latency and long-stream driver (answers/s at 50 connections is h2load's job: see bench/perf.sh). It is
 * non-blocking (Vert.x, two event loops), so thousands of open streams cost it a socket and a few
 * objects each. It POSTs a body to a URL and, per response, times the first byte and the first token (the first
 * occurrence of {@code --first}, e.g. {@code \n0:"} for the service or {@code "delta":{"content":"} for the stub);
 * a response counts as complete when it is 200, contains {@code --last} (the finish part or {@code [DONE]}) and none
 * of the {@code --fail} markers (the service's error part, or the notice of an answer that fell back to quoting the
 * docs because the model's circuit opened: it finishes like any other answer).
 *
 * <pre>
 * latency    --warmup=300 --requests=2000               one connection, sequential: TTFB and first-token p50/p99
 * streams    --streams=8000 --ramp=10 --timeout=120 --pid=N
 *            N streams (one connection each) opened evenly over the ramp; completion, errors, TTFB p50/p99, and
 *            the server's peak RSS (VmRSS sampled, VmHWM) and threads; --trace=FILE also writes, per stream, when
 *            it was sent (ms after the first) and its TTFB (ms), to see when in the run the slow ones were
 * common     --url=… --body=FILE [--header=Name:Value]… [--first=…] [--last=…] [--fail=…]…
 *            a {n} in the body becomes a per-request counter, so every question differs (no cache hits)
 * </pre>
 *
 * Prints one line of {@code key=value} pairs (times in ms) for bench/perf.sh.
 */
public final class LoadDriver {

    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
    private final Map<String, String> options;
    private final String url;
    private final String body;
    private final MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    private final byte[] first;
    private final byte[] last;
    private final List<byte[]> failures = new ArrayList<>();
    private final AtomicLong counter = new AtomicLong();
    private HttpClient client;

    private LoadDriver(Map<String, String> options, String[] args) throws IOException {
        this.options = options;
        this.url = options.get("url");
        this.body = Files.readString(Path.of(options.get("body")));
        this.first = unescape(options.getOrDefault("first", "\\n0:\"")).getBytes(StandardCharsets.UTF_8);
        this.last = unescape(options.getOrDefault("last", "\\nd:{")).getBytes(StandardCharsets.UTF_8);
        headers.add("Content-Type", "application/json");
        for (String arg : args) {
            if (arg.startsWith("--header=")) {
                String header = arg.substring("--header=".length());
                int colon = header.indexOf(':');
                headers.add(header.substring(0, colon).trim(), header.substring(colon + 1).trim());
            } else if (arg.startsWith("--fail=")) {
                failures.add(unescape(arg.substring("--fail=".length())).getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : Arrays.copyOfRange(args, 1, args.length)) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        LoadDriver driver = new LoadDriver(options, args);
        try {
            switch (args[0]) {
                case "latency" -> driver.latency();
                case "streams" -> driver.streams();
                default -> throw new IllegalArgumentException("mode: latency | streams");
            }
        } finally {
            driver.vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private int option(String name, int otherwise) {
        return Integer.parseInt(options.getOrDefault(name, String.valueOf(otherwise)));
    }

    private void client(int connections) {
        client = vertx.httpClientBuilder()
                .with(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true).setConnectTimeout(30_000))
                .with(new PoolOptions().setHttp1MaxSize(connections).setMaxWaitQueueSize(-1))
                .build();
    }

    /** One connection, one request at a time: the added latency with nothing queued. */
    private void latency() throws InterruptedException {
        int warmup = option("warmup", 300);
        int requests = option("requests", 2000);
        client(1);
        Samples ttfb = new Samples();
        Samples ttft = new Samples();
        AtomicInteger errors = new AtomicInteger();
        Context context = vertx.getOrCreateContext();
        for (int i = 0; i < warmup + requests; i++) {
            CountDownLatch done = new CountDownLatch(1);
            boolean measured = i >= warmup;
            context.runOnContext(v -> send(result -> {
                if (!result.complete) {
                    errors.incrementAndGet();
                } else if (measured) {
                    ttfb.add(result.firstByte - result.sent);
                    ttft.add(result.firstToken - result.sent);
                }
                done.countDown();
            }));
            if (!done.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no answer in 60 s");
            }
        }
        System.out.printf("requests=%d errors=%d %s %s%n", requests, errors.get(), ttfb.summary("ttfb"),
                ttft.summary("ttft"));
    }

    /** N streams held open together, opened evenly over the ramp, each on its own connection. */
    private void streams() throws Exception {
        int streams = option("streams", 2000);
        long rampNs = TimeUnit.SECONDS.toNanos(option("ramp", 10));
        long timeoutS = option("timeout", 180);
        int pid = option("pid", 0);
        client(streams);
        Samples ttfb = new Samples();
        Samples ttft = new Samples();
        AtomicLong completed = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong open = new AtomicLong();
        AtomicLong peakOpen = new AtomicLong();
        CountDownLatch finished = new CountDownLatch(streams);
        long rssBefore = ProcStatus.kib(pid, "VmRSS");
        AtomicLong peakRss = new AtomicLong(rssBefore);
        AtomicLong peakThreads = new AtomicLong();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                peakRss.accumulateAndGet(ProcStatus.kib(pid, "VmRSS"), Math::max);
                peakThreads.accumulateAndGet(ProcStatus.kib(pid, "Threads"), Math::max);
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        Samples trace = options.containsKey("trace") ? new Samples() : null;
        long start = System.nanoTime();
        AtomicInteger launched = new AtomicInteger();
        vertx.setPeriodic(5, tick -> {
            long due = Math.min(streams, (System.nanoTime() - start) * streams / Math.max(1, rampNs) + 1);
            while (launched.get() < due) {
                launched.incrementAndGet();
                peakOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
                send(result -> {
                    open.decrementAndGet();
                    if (trace != null) {
                        trace.add(result.sent - start, result.firstByte == 0 ? -1 : result.firstByte - result.sent);
                    }
                    if (result.complete) {
                        completed.incrementAndGet();
                        ttfb.add(result.firstByte - result.sent);
                        ttft.add(result.firstToken - result.sent);
                    } else {
                        errors.incrementAndGet();
                        if (errors.get() <= 5) {
                            System.err.println("stream failed: " + result.failure);
                        }
                    }
                    finished.countDown();
                });
            }
            if (launched.get() == streams) {
                vertx.cancelTimer(tick);
            }
        });
        boolean all = finished.await(timeoutS, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - start) / 1e9;
        sampling.set(false);
        sampler.join();
        System.out.printf("streams=%d completed=%d errors=%d unfinished=%d peak_open=%d seconds=%.1f %s %s "
                        + "rss_before_mib=%d peak_rss_mib=%d vmhwm_mib=%d peak_threads=%d%n",
                streams, completed.get(), errors.get(), all ? 0 : finished.getCount(), peakOpen.get(), seconds,
                ttfb.summary("ttfb"), ttft.summary("ttft"), rssBefore / 1024, peakRss.get() / 1024,
                ProcStatus.kib(pid, "VmHWM") / 1024, peakThreads.get());
        if (trace != null) {
            Files.write(Path.of(options.get("trace")), trace.pairs());
        }
    }

    /** What one request saw; times are System.nanoTime(). */
    private static final class Result {
        long sent;
        long firstByte;
        long firstToken;
        long ended;
        boolean complete;
        String failure;
    }

    private interface Done {
        void accept(Result result);
    }

    /** Sends one request; called on a Vert.x context, so the response's handlers are set before its body arrives. */
    private void send(Done done) {
        Result result = new Result();
        Buffer payload = Buffer.buffer(body.replace("{n}", Long.toString(counter.incrementAndGet())));
        Matcher firstMatch = new Matcher(first);
        Matcher lastMatch = new Matcher(last);
        List<Matcher> failMatches = failures.stream().map(Matcher::new).toList();
        AtomicBoolean reported = new AtomicBoolean();
        Runnable finish = () -> {
            if (reported.compareAndSet(false, true)) {
                result.ended = System.nanoTime();
                done.accept(result);
            }
        };
        result.sent = System.nanoTime();
        client.request(new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url).setHeaders(headers))
                .compose(request -> request.send(payload))
                .onSuccess(response -> {
                    if (response.statusCode() != 200) {
                        result.failure = "HTTP " + response.statusCode();
                    }
                    response.handler(chunk -> {
                        long now = System.nanoTime();
                        if (result.firstByte == 0) {
                            result.firstByte = now;
                        }
                        if (result.firstToken == 0 && firstMatch.feed(chunk)) {
                            result.firstToken = now;
                        }
                        lastMatch.feed(chunk);
                        failMatches.forEach(failed -> failed.feed(chunk));
                    });
                    response.exceptionHandler(e -> {
                        result.failure = e.toString();
                        finish.run();
                    });
                    response.endHandler(v -> {
                        failMatches.stream().filter(failed -> failed.found && result.failure == null).findFirst()
                                .ifPresent(failed -> result.failure = "answered with "
                                        + new String(failed.pattern, StandardCharsets.UTF_8));
                        result.complete = result.failure == null && result.firstToken != 0 && lastMatch.found;
                        if (result.failure == null && !result.complete) {
                            result.failure = "incomplete answer";
                        }
                        finish.run();
                    });
                })
                .onFailure(e -> {
                    result.failure = e.toString();
                    finish.run();
                });
    }

    /** Finds a byte string across chunk boundaries (Knuth-Morris-Pratt), without keeping the body. */
    private static final class Matcher {
        private final byte[] pattern;
        private final int[] fallback;
        private int matched;
        boolean found;

        Matcher(byte[] pattern) {
            this.pattern = pattern;
            this.fallback = new int[pattern.length];
            for (int i = 1, k = 0; i < pattern.length; i++) {
                while (k > 0 && pattern[i] != pattern[k]) {
                    k = fallback[k - 1];
                }
                if (pattern[i] == pattern[k]) {
                    k++;
                }
                fallback[i] = k;
            }
        }

        boolean feed(Buffer chunk) {
            for (int i = 0; i < chunk.length() && !found; i++) {
                byte b = chunk.getByte(i);
                while (matched > 0 && b != pattern[matched]) {
                    matched = fallback[matched - 1];
                }
                if (b == pattern[matched] && ++matched == pattern.length) {
                    found = true;
                }
            }
            return found;
        }
    }

    /** Latencies in nanoseconds, summarized in milliseconds. */
    private static final class Samples {
        private long[] values = new long[1024];
        private int size;

        synchronized void add(long... nanos) {
            if (size + nanos.length > values.length) {
                values = Arrays.copyOf(values, Math.max(size * 2, size + nanos.length));
            }
            System.arraycopy(nanos, 0, values, size, nanos.length);
            size += nanos.length;
        }

        synchronized String summary(String name) {
            long[] sorted = Arrays.copyOf(values, size);
            Arrays.sort(sorted);
            return String.format("%1$s_p50=%2$.2f %1$s_p99=%3$.2f %1$s_max=%4$.2f", name, percentile(sorted, 0.50),
                    percentile(sorted, 0.99), sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e6);
        }

        /** The values two by two, in milliseconds, one pair a line. */
        synchronized List<String> pairs() {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i + 1 < size; i += 2) {
                lines.add(String.format("%.2f %.2f", values[i] / 1e6, values[i + 1] / 1e6));
            }
            return lines;
        }

        private static double percentile(long[] sorted, double p) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] / 1e6;
        }
    }

    private static String unescape(String value) {
        return value.replace("\\n", "\n");
    }
}
