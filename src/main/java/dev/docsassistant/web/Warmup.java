package dev.docsassistant.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.spi.AppenderAttachable;
import dev.docsassistant.ground.Secrets;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import org.apache.camel.CamelContext;
import org.apache.camel.component.platform.http.main.MainHttpServer;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.Main;
import org.apache.camel.main.MainListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request path run hot before the service starts, so that a new pod's first burst is served as a warm pod's
 * (issue 42: a fresh process kept the first of 2,000 streams waiting seconds for their first byte while the JIT
 * compiled the path they all took). The service's own routes and beans are started once more, in a throwaway Camel
 * Main on loopback ports of its own, and asked questions over real HTTP, {@code /v1} and {@code /v2} in turn, until
 * the JIT has settled; then that Main stops and the service starts. Compiled code belongs to the classes, not to a
 * Camel context, so the service runs it from its first request, and no health endpoint answers (the pod is not
 * ready) until it has.
 * <p>
 * The throwaway Main shares nothing with the service: its own tenants file (one organization, a random key, the
 * bundled docs), in-memory stores, a store of record in a folder of its own that is deleted after, no traces, no own
 * steps, and a model server of its own on loopback ({@link WarmupModel}) in place of {@code assistant.model.base-url},
 * so warming costs no model tokens, writes nothing a reader or the docs team sees and reaches no other process. Its
 * lines are written nowhere.
 */
final class Warmup {

    private static final Logger LOG = LoggerFactory.getLogger(Warmup.class);
    private static final String DOMAIN = "warm-up";
    /** A quota the warm-up never reaches. */
    private static final String UNREACHED = "1000000000";
    /** Questions per round, between two looks at the JIT. */
    private static final int ROUND = 1000;
    /** Questions in the shape readers ask. */
    private static final List<String> QUESTIONS = List.of("How do I change the port the service listens on?",
            "Can I answer with a local Ollama model?", "How do I deploy on Kubernetes with Camel K?",
            "What does the rate limit allow per organization?", "How do I serve my own docs from a Git repository?",
            "Which environment variables configure the model?", "How are conversations kept between questions?",
            "How do I export what readers asked?");

    private Warmup() {
    }

    /**
     * Warms the JIT as {@code assistant.warmup.*} say; never fails the start: a failed warm-up is a cold start. Whether
     * it warmed: it ran to its end and questions were answered (a refused one is logged; none asked is no warm-up).
     *
     * @param withCache whether the start runs with an AOT cache: it warms for at most
     *                  {@code assistant.warmup.max-seconds-with-cache}, as the cache already holds the request path's
     *                  profiles (a new pod ready in 10 s answered its first minute as the warm one did, BENCHMARKS.md)
     */
    static boolean run(boolean withCache) {
        int limit = Integer.parseInt(setting("assistant.warmup.requests"));
        if (limit <= 0) {
            return false;
        }
        long started = System.nanoTime();
        long maxSeconds = Long.parseLong(setting("assistant.warmup.max-seconds"));
        if (withCache) {
            maxSeconds = Math.min(maxSeconds, Long.parseLong(setting("assistant.warmup.max-seconds-with-cache")));
        }
        long deadline = started + TimeUnit.SECONDS.toNanos(maxSeconds);
        int concurrency = Integer.parseInt(setting("assistant.warmup.concurrency"));
        Path scratch = null;
        Main main = new OwnSettingsMain();
        Result result = null;
        Exception failure = null;
        List<OutputStreamAppender<?>> muted = mute();
        try {
            String key = "mint_dsc_warmup_" + Secrets.token(18);
            scratch = Files.createTempDirectory("docs-assistant-warm-up");
            Path tenants = scratch.resolve("tenants.yaml");
            Files.writeString(tenants, "organizations:\n  - id: warm-up\n    apiKeys: [\"" + key + "\"]\n"
                    + "    rateLimitPerHour: " + UNREACHED + "\n    domains:\n      - id: " + DOMAIN + "\n"
                    + "        docs: classpath:demo-docs\n");
            try (WarmupModel model = WarmupModel.start()) {
                override(main, tenants, model.baseUrl());
                main.start();
                result = ask(readyApiPort(main.getCamelContext(), deadline), key, limit, concurrency, deadline);
            }
        } catch (Exception e) {
            failure = e;
        } finally {
            try {
                main.stop();
            } catch (Exception e) {
                failure = failure != null ? failure : e;
            }
            unmute(muted);
            delete(scratch);
        }
        if (result != null) {
            LOG.info("Warmed up in {} s: {} answers ({} refused) through the pipeline on loopback, the JIT "
                    + "compiling for {} s, {} (at most {} s{}); starting the service",
                    seconds(System.nanoTime() - started), result.answered(), result.failed(), result.jitSeconds(),
                    result.settled() ? "then settled" : "still compiling as it stopped (its questions or time used up)",
                    maxSeconds, withCache ? ", the cache's limit" : "");
        }
        if (result != null && result.firstRefusal() != null) {
            LOG.warn("A warm-up question was refused, the path it took is not warm: {}", result.firstRefusal());
        }
        if (failure != null) {
            LOG.warn("The warm-up failed ({}); the service starts cold", failure.toString());
        }
        return failure == null && result != null && result.answered() > 0;
    }

    private static void delete(Path scratch) {
        if (scratch == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(scratch)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            LOG.warn("Could not delete the warm-up's folder {}: {}", scratch, e.toString());
        }
    }

    /**
     * A warm-up setting as the service would read it, before any Camel runs: a system property, else its environment
     * variable, else application.properties (Camel K's {@code -p} and mounted property files are read by Camel only).
     */
    private static String setting(String name) {
        String value = operatorSetting(name);
        return (value != null ? value : applicationProperties().getProperty(name)).strip();
    }

    /** What a system property or, else, an environment variable sets {@code name} to; null if neither does. */
    private static String operatorSetting(String name) {
        String value = System.getProperty(name);
        return value != null ? value
                : System.getenv(name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
    }

    private static Properties applicationProperties() {
        Properties defaults = new Properties();
        try (InputStream in = Warmup.class.getResourceAsStream("/application.properties")) {
            defaults.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return defaults;
    }

    /**
     * The warm-up's settings: the service's own (application.properties, and the variables and {@code -D} that
     * override them), so that the path warmed is the path the service takes (its model client, its search), but for
     * what would make the warm-up reach anything beyond this process, which is set here and wins.
     */
    private static void override(Main main, Path tenants, String modelUrl) {
        Map<String, String> own = new LinkedHashMap<>();
        own.put("camel.main.name", "docs-assistant-warm-up");
        own.put("camel.server.port", "0");
        own.put("camel.management.port", "0");
        own.put("camel.main.configuration-classes",
                "dev.docsassistant.web.BoundPorts,dev.docsassistant.custom.StepFiles");
        own.put("assistant.tenants-file", tenants.toString());
        own.put("assistant.routes-dir", "");
        own.put("assistant.store", "memory");
        // the embedded store's file (or the shared database) is the service's: the warm-up's is its own, deleted after
        own.put("assistant.records.jdbc-url", "");
        own.put("assistant.records.data-dir", tenants.resolveSibling("records").toString());
        own.put("assistant.records.username", "");
        own.put("assistant.records.password", "");
        own.put("assistant.sources.dir", "");
        own.put("assistant.model.base-url", modelUrl);
        own.put("assistant.model.api-key", "warm-up");
        // every quota out of reach, yet counted: its code is on the path to warm
        for (String quota : List.of("org-per-hour", "ip-per-day", "ip-per-minute", "ip-burst", "ip-max-streams",
                "org-max-streams", "org-tokens-per-hour", "org-tokens-per-day")) {
            own.put("assistant.ratelimit." + quota, UNREACHED);
        }
        Properties defaults = applicationProperties();
        for (String name : defaults.stringPropertyNames()) {
            String set = operatorSetting(name);
            if (set != null && !own.containsKey(name)) {
                main.addOverrideProperty(name, set);
            }
        }
        own.forEach(main::addOverrideProperty);
        // Camel lets a variable or -D win even over these overrides: here they were read above, and lose
        main.addMainListener(new MainListenerSupport() {
            @Override
            public void beforeConfigure(BaseMainSupport configured) {
                var properties = (org.apache.camel.component.properties.PropertiesComponent) configured
                        .getCamelContext().getPropertiesComponent();
                properties.setEnvironmentVariableMode(
                        org.apache.camel.component.properties.PropertiesComponent.ENVIRONMENT_VARIABLES_MODE_NEVER);
                properties.setSystemPropertiesMode(
                        org.apache.camel.component.properties.PropertiesComponent.SYSTEM_PROPERTIES_MODE_NEVER);
            }
        });
    }

    /**
     * A Main whose own overrides win over a cloud properties location (Camel K's and the pods' mounted files) too,
     * which Camel reads over them: the warm-up's loopback model and key stay the warm-up's. Camel 4.18 keeps the
     * overrides as the defaults of the cloud files' Properties, which it then reads entry by entry, failing on each
     * default (a NullPointerException that made every shipped pod start cold): flattened here, ours on top.
     */
    private static final class OwnSettingsMain extends Main {
        @Override
        protected void configurePropertiesService(CamelContext context) throws Exception {
            super.configurePropertiesService(context);
            var properties = (org.apache.camel.component.properties.PropertiesComponent)
                    context.getPropertiesComponent();
            Properties flat = new Properties();
            flat.putAll(properties.getOverrideProperties()); // the table only: the cloud files' settings
            Properties own = getOverrideProperties();
            own.stringPropertyNames().forEach(name -> flat.setProperty(name, own.getProperty(name)));
            properties.setOverrideProperties(flat);
        }
    }

    /** The API's port, once the warm-up's docs are indexed (its readiness is UP). */
    private static int readyApiPort(CamelContext context, long deadline) throws InterruptedException {
        while (!HealthCheckHelper.invokeReadiness(context).stream()
                .allMatch(check -> check.getState() == HealthCheck.State.UP)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the warm-up's docs were not indexed in time");
            }
            Thread.sleep(20);
        }
        return context.hasService(MainHttpServer.class).getRouter().getServer().getServer().actualPort();
    }

    /**
     * Rounds of {@code ROUND} questions, {@code concurrency} streams open at a time (a burst's shape: many answers
     * streaming at once, each token its own write), until a round keeps the JIT busy for less than a tenth of it and
     * ends with its queues empty, once each path was taken often enough for C2 to compile what runs once per answer
     * (the path is compiled), {@code limit} questions were asked or the deadline passed.
     */
    private static Result ask(int port, String key, int limit, int concurrency, long deadline) throws Exception {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long jitStart = jit.getTotalCompilationTime();
        Vertx vertx = Vertx.vertx();
        // a new connection per question, as a burst of readers opens them (keep-alive would skip accepting them)
        HttpClient http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false)
                .setDefaultHost("127.0.0.1").setDefaultPort(port), new PoolOptions().setHttp1MaxSize(concurrency));
        Semaphore open = new Semaphore(concurrency);
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> firstRefusal = new AtomicReference<>();
        int asked = 0;
        // A quiet JIT says nothing of a method run once per answer that has not yet reached C2's threshold: it
        // compiles during the first burst (the search, the pipeline's steps did). Each path, /v1 and /v2, takes
        // every other question, so a quiet round counts only once each has taken that many.
        long minimum = 2 * Jit.callsBeforeC2();
        boolean settled = false;
        try {
            for (int round = 1; asked < limit && System.nanoTime() < deadline; round++) {
                long roundStart = System.nanoTime();
                long jitBefore = jit.getTotalCompilationTime();
                List<CompletableFuture<String>> running = new ArrayList<>();
                for (int end = Math.min(limit, asked + ROUND); asked < end && System.nanoTime() < deadline; asked++) {
                    open.acquire();
                    running.add(question(http, key, asked).toCompletionStage().toCompletableFuture()
                            .handle((refusal, error) -> error != null ? error.toString() : refusal)
                            .whenComplete((refusal, ignored) -> {
                                open.release();
                                if (refusal == null) {
                                    answered.incrementAndGet();
                                } else if (failed.getAndIncrement() == 0) {
                                    firstRefusal.set(refusal);
                                }
                            }));
                }
                CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).join();
                long jitMillis = jit.getTotalCompilationTime() - jitBefore;
                long roundMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - roundStart);
                if (asked >= minimum && round > 1 && jitMillis * 10 < roundMillis) {
                    settled = true;
                    break;
                }
                drain(deadline);
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        return new Result(answered.get(), failed.get(), firstRefusal.get(), settled,
                (jit.getTotalCompilationTime() - jitStart) / 1000.0);
    }

    /**
     * Waits, asking nothing, until the JIT has compiled what the round queued: on a small machine the questions would
     * otherwise take the cores its compiler threads need, and HotSpot raises its thresholds while C2's queue is long,
     * so the next round would profile more and compile less.
     */
    private static void drain(long deadline) throws InterruptedException {
        while (Jit.queued() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    /**
     * Question {@code n}, to {@code /v1} and {@code /v2} in turn, as the widget sends it, its answer read to the end:
     * null if it was answered, else what was wrong.
     */
    private static Future<String> question(HttpClient http, String key, int n) {
        String question = QUESTIONS.get(n % QUESTIONS.size());
        // the reader's page, distinct per question, makes each search run (no cached result), while the question's
        // vector is computed once: warming needs Lucene's code hot, not the embedding model's native code busy
        String body = "{\"fp\":\"warm-up\",\"retrievalPageSize\":5,\"currentPath\":\"/warm-up/" + n
                + "\",\"messages\":[{\"id\":\"m" + n
                + "\",\"role\":\"user\",\"content\":\"" + question + "\",\"parts\":[{\"type\":\"text\",\"text\":\""
                + question + "\"}]}]}";
        return http.request(new RequestOptions().setMethod(HttpMethod.POST).setIdleTimeout(30_000)
                        .setURI("/v" + (1 + n % 2) + "/assistant/" + DOMAIN + "/message")
                        .putHeader("Content-Type", "application/json").putHeader("Authorization", "Bearer " + key))
                .compose(request -> request.send(body))
                .compose(response -> response.body().map(answer -> response.statusCode() == 200 ? null
                        : response.statusCode() + " " + answer));
    }

    /**
     * Every appender writing to a stream (the console's, a file's) writes to nothing while the warm-up runs: the
     * warm-up's lines are not the service's, yet the path a line takes (its encoding above all, each request has an
     * access line) runs hot as the service will run it.
     */
    private static List<OutputStreamAppender<?>> mute() {
        Set<OutputStreamAppender<?>> appenders = new LinkedHashSet<>();
        LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
        for (ch.qos.logback.classic.Logger logger : logging.getLoggerList()) {
            logger.iteratorForAppenders().forEachRemaining(appender -> streams(appender, appenders));
        }
        // the console's stream is logback's wrapper of System.out, whose close (called here) leaves System.out open
        appenders.forEach(appender -> appender.setOutputStream(OutputStream.nullOutputStream()));
        return List.copyOf(appenders);
    }

    /** The appenders writing to a stream: this one, or those it hands its lines to (the tracing appender's). */
    private static void streams(Appender<ILoggingEvent> appender, Set<OutputStreamAppender<?>> into) {
        if (appender instanceof OutputStreamAppender<?> stream) {
            into.add(stream);
        } else if (appender instanceof AppenderAttachable<?> wrapper) {
            @SuppressWarnings("unchecked")
            AppenderAttachable<ILoggingEvent> attached = (AppenderAttachable<ILoggingEvent>) wrapper;
            attached.iteratorForAppenders().forEachRemaining(inner -> streams(inner, into));
        }
    }

    /** Each appender's own stream again: starting it opens it (the console's, a file's in append mode). */
    private static void unmute(List<OutputStreamAppender<?>> appenders) {
        for (OutputStreamAppender<?> appender : appenders) {
            appender.stop();
            appender.start();
        }
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }

    private record Result(int answered, int failed, String firstRefusal, boolean settled, double jitSeconds) {
    }
}
