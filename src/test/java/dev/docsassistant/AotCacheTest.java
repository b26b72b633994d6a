package dev.docsassistant;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import dev.docsassistant.web.Service;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JDK 25's AOT cache trained by the warm-up (issue 56), as a pod or {@code java -jar} starts: the service's classes in
 * a jar of their own (the JVM caches classes from jars only), its main class in a JVM of its own. A training run
 * writes the cache and exits; a start with it says so; a start with a cache that is missing, not a cache, or trained
 * with another build of the jar says so in one line and serves as without one, warming up for the longer limit. Without
 * JDK 25 the start-up log says what is missed.
 */
@SameOnAnyJdk
class AotCacheTest {

    private static final String CACHE_LINE = "AOT cache";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aCacheTrainedByTheWarmUpIsUsedAndOneMissingForeignOrStaleIsIgnoredWithOneLine(@TempDir Path tmp)
            throws Exception {
        Path java = OwnJvmService.jdk(version -> version >= 25).map(OwnJvmService.Jdk::java).orElse(null);
        Assumptions.assumeTrue(java != null, "SKIPPED: no JDK 25 (the AOT cache's) in " + OwnJvmService.jvms()
                + " nor running this test");
        Path jar = tmp.resolve("docs-assistant.jar");
        jar(jar, List.of());
        Path cache = tmp.resolve("docs-assistant.aot");

        Path trainingLog = tmp.resolve("training.log");
        // a deadline for a loaded machine (the warm-up's counts from its start, the docs' indexing included)
        Process training = start(java, jar, trainingLog, "-XX:AOTCacheOutput=" + cache, "ASSISTANT_WARMUP_REQUESTS=200",
                "ASSISTANT_WARMUP_MAX_SECONDS=600");
        assertTrue(training.waitFor(900, TimeUnit.SECONDS), "the training run did not end");
        assertEquals(0, training.exitValue(), Files.readString(trainingLog));
        assertTrue(Files.readString(trainingLog).contains("Warmed up in"), Files.readString(trainingLog));
        assertTrue(Files.size(cache) > 10_000_000, "the JVM wrote the cache as the training run exited");

        // warmed as shipped (the suite's starts are cold), within the default limits
        String used = serve(java, jar, tmp.resolve("used.log"), "-XX:AOTCache=" + cache, "ASSISTANT_WARMUP_REQUESTS=200");
        assertTrue(used.contains("Running with the AOT cache " + cache), used);
        // the cache holds the request path's profiles: its start warms up for the shorter limit
        assertTrue(used.contains("(at most 8 s, the cache's limit); starting the service"), used);

        Path missing = tmp.resolve("missing.aot");
        String noFile = serve(java, jar, tmp.resolve("missing.log"), "-XX:AOTCache=" + missing,
                "ASSISTANT_WARMUP_REQUESTS=200");
        assertTrue(noFile.contains("The AOT cache " + missing + " is not used (no such file)"), noFile);
        assertTrue(noFile.contains("(at most 60 s); starting the service"), noFile);

        // not a cache, as one of another JDK is not: the JVM cannot map it
        Path foreign = Files.write(tmp.resolve("foreign.aot"), Arrays.copyOf(Files.readAllBytes(jar), 4096));
        String notMapped = serve(java, jar, tmp.resolve("foreign.log"), "-XX:AOTCache=" + foreign);
        assertTrue(notMapped.contains("The AOT cache " + foreign + " is not used (the JVM could not map it"), notMapped);

        // a cache the JVM maps, its stamp another class path's: the service starts anew without it
        String stamp = Files.readString(Path.of(cache + ".stamp"));
        Files.writeString(Path.of(cache + ".stamp"), stamp.replace("class path ", "class path 0"));
        String stale = serve(java, jar, tmp.resolve("stale.log"), "-XX:AOTCache=" + cache);
        assertTrue(stale.contains("The AOT cache " + cache + " was trained with other jars"), stale);

        // the jar rebuilt: the JVM may leave the cache alone itself (it did for this jar, not for a one-class one,
        // whose old class it ran); either way one line, and a start without it
        Files.writeString(Path.of(cache + ".stamp"), stamp);
        jar(jar, List.of("rebuilt.txt"));
        String rebuilt = serve(java, jar, tmp.resolve("rebuilt.log"), "-XX:AOTCache=" + cache);
        assertTrue(rebuilt.contains("The AOT cache " + cache + " was trained with other jars")
                || rebuilt.contains("The AOT cache " + cache + " is not used (the JVM could not map it"), rebuilt);
    }

    @Test
    void beforeJdk25TheStartUpLogSaysWhatItMisses(@TempDir Path tmp) throws Exception {
        Path java = OwnJvmService.jdk(version -> version < 25).map(OwnJvmService.Jdk::java).orElse(null);
        Assumptions.assumeTrue(java != null, "SKIPPED: no JDK before 25 in " + OwnJvmService.jvms()
                + " nor running this test");
        Path jar = tmp.resolve("docs-assistant.jar");
        jar(jar, List.of());
        String log = serve(java, jar, tmp.resolve("service.log"));
        assertTrue(log.matches("(?s).*Running on Java \\d+: no AOT cache \\(JDK 25\\), so each start loads and links "
                + "its classes and profiles the request path anew.*"), log);
    }

    /**
     * Starts the service, asks it a question, stops it: its log, asserted to have one line on the AOT cache, no line
     * of the JVM's own (plain text), and the answer.
     */
    private String serve(Path java, Path jar, Path log, String... options) throws Exception {
        int port = OwnJvmService.freePort();
        int management = OwnJvmService.freePort();
        List<String> settings = new ArrayList<>(Arrays.asList(options));
        settings.addAll(List.of("CAMEL_SERVER_PORT=" + port, "CAMEL_MANAGEMENT_PORT=" + management));
        Process service = start(java, jar, log, settings.toArray(String[]::new));
        try {
            OwnJvmService.awaitHealthy(http, management, 600, service);
            WarmupTest.assertTheDemoAnswers(http, port, Files.readString(log));
        } finally {
            service.destroy();
            assertTrue(service.waitFor(60, TimeUnit.SECONDS));
        }
        String text = Files.readString(log);
        assertEquals(1, text.lines().filter(line -> line.contains(CACHE_LINE)).count(), text);
        assertTrue(text.lines().noneMatch(line -> line.startsWith("[")), "a line of the JVM's own: " + text);
        return text;
    }

    /**
     * The jar's main class in a JVM of its own, with the Containerfile's logging of the AOT cache ({@code -Xlog:aot*=off}
     * on JDK 25: the service says it, once), {@code options} starting with "-" its JVM's, NAME=value its environment's.
     */
    private static Process start(Path java, Path jar, Path log, String... options) throws IOException {
        List<String> command = new ArrayList<>(List.of(java.toString(), "-XX:MaxRAM=2g"));
        if (Stream.of(options).anyMatch(option -> option.startsWith("-XX:AOT"))) {
            command.add("-Xlog:aot*=off");
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        // the test's own routes are not in the jar
        builder.environment().remove("CAMEL_MAIN_ROUTES_INCLUDE_PATTERN");
        builder.environment().put("ASSISTANT_SEARCH_SEMANTIC", "false");
        for (String option : options) {
            if (option.startsWith("-")) {
                command.add(option);
            } else {
                builder.environment().put(option.substring(0, option.indexOf('=')), option.substring(option.indexOf('=') + 1));
            }
        }
        command.addAll(List.of("-cp", jar + File.pathSeparator + libraries(), Service.class.getName()));
        return builder.command(command).start();
    }

    /** The service's classes and resources as a jar, with {@code extra} entries (a rebuild); its time is now. */
    private static void jar(Path jar, List<String> extra) throws IOException {
        Path classes = Path.of(Service.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out, manifest);
                Stream<Path> files = Files.walk(classes)) {
            // folders too, as the build's jar has them: the bundled docs and migrations are looked up as folders
            for (Path file : (Iterable<Path>) files.filter(file -> !file.equals(classes))::iterator) {
                String name = classes.relativize(file).toString().replace(File.separatorChar, '/');
                zip.putNextEntry(new JarEntry(Files.isDirectory(file) ? name + "/" : name));
                if (Files.isRegularFile(file)) {
                    Files.copy(file, zip);
                }
            }
            for (String entry : extra) {
                zip.putNextEntry(new JarEntry(entry));
                zip.write(entry.getBytes());
            }
        }
    }

    /** The jars of this test's class path (the service's libraries; the JVM caches no class from a folder). */
    private static String libraries() {
        return String.join(File.pathSeparator, Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.endsWith(".jar")).toList());
    }
}
