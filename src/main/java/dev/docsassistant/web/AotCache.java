package dev.docsassistant.web;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JDK 25's AOT cache (JEP 483: classes loaded and linked ahead of time; JEP 515: the methods' profiles, so the hot
 * ones compile at once), trained by the warm-up. A start with {@code -XX:AOTCacheOutput=FILE} is a training run: it
 * warms up, writes beside FILE a stamp of the class path it ran ({@code FILE.stamp}) and exits, and the JVM writes the
 * cache. A start with {@code -XX:AOTCache=FILE} then says, in one line, whether it runs with the cache.
 * <p>
 * The JVM (25.0.3) checks that a cache matches its JDK (one it cannot map is left alone, {@code -XX:AOTMode=auto}),
 * but not always that it matches the jars: it ran a one-class jar's trained class after that jar was rebuilt.
 * So a cache the JVM mapped is kept only if its stamp names this class path (each file's path, size and time); else the
 * service starts again, in a new process without the cache ({@code -XX:AOTMode=off}), and waits for it: its classes
 * are the ones on disk. No case fails the start. A start with its cache warms up for less
 * ({@code assistant.warmup.max-seconds-with-cache}): the cache already holds the request path's profiles.
 */
final class AotCache {

    private static final Logger LOG = LoggerFactory.getLogger(AotCache.class);
    static final String STAMP = ".stamp";

    private AotCache() {
    }

    /** A JVM option's value; empty if unset or unknown to this JVM (before JDK 24 or 25). */
    private static String option(String name) {
        try {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(name).getValue();
        } catch (IllegalArgumentException | UnsupportedOperationException unknown) {
            return "";
        }
    }

    /** The cache this run trains (-XX:AOTCacheOutput), or null if it is not a training run. */
    static Path training() {
        String output = option("AOTCacheOutput");
        return output.isEmpty() ? null : Path.of(output);
    }

    /** After the training's warm-up: the stamp beside the cache the JVM writes as it exits. */
    static void stamp(Path cache) throws IOException {
        Files.writeString(Path.of(cache + STAMP), classPathStamp());
        LOG.info("Trained the AOT cache {} with the warm-up; exiting, the JVM writes it now. Start with "
                + "-XX:AOTCache={}", cache, cache);
    }

    /** What a start does about its AOT cache ({@link #use}). */
    enum Use {
        /** It runs with a cache trained with its own jars: the warm-up may be shorter. */
        CACHE,
        /** It runs without one (none given, none usable, before JDK 25, a training run). */
        NONE,
        /** The JVM mapped a cache trained with other jars: the service must run in a new process without it. */
        RESTART_WITHOUT
    }

    /** Logs whether this start runs with an AOT cache, in one line, and says what the start does about it. */
    static Use use() throws IOException {
        int jdk = Runtime.version().feature();
        if (jdk < 25) {
            LOG.info("Running on Java {}: no AOT cache (JDK 25), so each start loads and links its classes and "
                    + "profiles the request path anew, in the warm-up (README: Start in seconds)", jdk);
            return Use.NONE;
        }
        String cache = option("AOTCache");
        if (training() != null) {
            return Use.NONE; // it says so as it ends
        }
        if (cache.isEmpty() || "off".equals(option("AOTMode"))) {
            if (cache.isEmpty()) {
                LOG.info("No AOT cache: a training run (-XX:AOTCacheOutput=FILE) makes one, -XX:AOTCache=FILE uses it "
                        + "(README: Start in seconds)");
            }
            return Use.NONE;
        }
        if (!System.getProperty("java.vm.info", "").contains("sharing")) {
            LOG.warn("The AOT cache {} is not used ({}); starting without it", cache, Files.exists(Path.of(cache))
                    ? "the JVM could not map it: another JDK's, or not a cache; -Xlog:aot says why" : "no such file");
            return Use.NONE;
        }
        Path stamp = Path.of(cache + STAMP);
        if (Files.isRegularFile(stamp) && Files.readString(stamp).equals(classPathStamp())) {
            LOG.info("Running with the AOT cache {}: its classes loaded and linked, the request path's profiles from "
                    + "its training", cache);
            return Use.CACHE;
        }
        LOG.warn("The AOT cache {} was trained with {} than this start's, so the JVM would run that training's classes: "
                + "starting again without it, in a new process", cache, Files.isRegularFile(stamp)
                ? "other jars" : "unknown jars (no " + stamp.getFileName() + ")");
        return Use.RESTART_WITHOUT;
    }

    /** Runs the service in a new process without the AOT cache ({@link Use#RESTART_WITHOUT}): its exit code. */
    static int restartWithout(String[] args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-XX:AOTMode=off", "-cp", System.getProperty("java.class.path"),
                Service.class.getName()));
        command.addAll(List.of(args));
        Process service = new ProcessBuilder(command).inheritIO().start();
        // a SIGTERM to this process (PID 1 in a container) stops the service gracefully, and then this one
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.destroy();
            try {
                service.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        return service.waitFor();
    }

    /**
     * What the classes of this run are read from: each file of the class path, and of the class paths their
     * manifests name, with its size and time of change. Rebuilding a jar changes it.
     */
    static String classPathStamp() throws IOException {
        Set<Path> files = new LinkedHashSet<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            add(Path.of(entry).toAbsolutePath().normalize(), files);
        }
        StringBuilder stamp = new StringBuilder();
        for (Path file : files) {
            stamp.append(file).append(' ').append(Files.exists(file) ? Files.size(file) + " "
                    + Files.getLastModifiedTime(file).toMillis() : "missing").append('\n');
        }
        try {
            return "java " + Runtime.version() + "\nclass path " + HexFormat.of().formatHex(MessageDigest
                    .getInstance("SHA-256").digest(stamp.toString().getBytes(StandardCharsets.UTF_8))) + "\n";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void add(Path file, Set<Path> files) throws IOException {
        if (!files.add(file) || !Files.isRegularFile(file) || !file.toString().endsWith(".jar")) {
            return;
        }
        String classPath;
        try (JarFile jar = new JarFile(file.toFile())) {
            classPath = jar.getManifest() == null ? null
                    : jar.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
        }
        if (classPath != null) {
            for (String relative : classPath.trim().split("\\s+")) {
                add(file.resolveSibling(relative).normalize(), files);
            }
        }
    }
}
