package dev.docsassistant;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/**
 * A real PostgreSQL server on a free loopback port, its cluster in a temporary folder, made with {@code initdb} and
 * started and stopped with {@code pg_ctl} from Debian's packages ({@code .ci/run} installs them). PostgreSQL refuses
 * to run as root, so as root the folder is handed to the {@code postgres} user and the tools run as it. Trust
 * authentication on loopback only. Without the binaries the calling test class is skipped with a message (failed
 * under CI, which must never skip it).
 */
final class PostgresServer implements AutoCloseable {

    static final String USER = "assistant";
    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");

    private final Path folder;
    private final int port;
    private boolean running = true;

    private PostgresServer(Path folder, int port) {
        this.folder = folder;
        this.port = port;
    }

    static PostgresServer startOrSkip() throws IOException, InterruptedException {
        boolean installed = Files.isExecutable(BIN.resolve("initdb"));
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("PostgreSQL 15 is not installed: .ci/run must install postgresql-15");
        }
        Assumptions.assumeTrue(installed, "PostgreSQL is not installed (apt-get install postgresql-15; .ci/run "
                + "does): the shared PostgreSQL store's tests skipped");
        Path folder = Files.createTempDirectory("records-pg");
        PostgresServer server = new PostgresServer(folder, RedisServer.freePort());
        if (root()) {
            run(List.of("chown", "-R", "postgres:postgres", folder.toString()));
        }
        server.pg(List.of(BIN.resolve("initdb").toString(), "-D", folder.resolve("data").toString(), "-U", USER,
                "--auth=trust", "--no-sync", "-E", "UTF8"));
        server.pg(List.of(BIN.resolve("pg_ctl").toString(), "-D", folder.resolve("data").toString(), "-w",
                "-l", folder.resolve("log").toString(), "-o", "-p " + server.port + " -k " + folder
                        + " -c listen_addresses=127.0.0.1 -c fsync=off", "start"));
        return server;
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    /** The cluster's data folder (its relation files under {@code base}). */
    Path dataDir() {
        return folder.resolve("data");
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private void pg(List<String> command) throws IOException, InterruptedException {
        List<String> asUser = new ArrayList<>();
        if (root()) {
            asUser.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        asUser.addAll(command);
        run(asUser);
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }

    /** Stops the server at once, as a crash would (its clients' connections broken); {@link #close} still cleans up. */
    void stop() throws IOException, InterruptedException {
        if (running) {
            pg(List.of(BIN.resolve("pg_ctl").toString(), "-D", folder.resolve("data").toString(), "-m",
                    "immediate", "-w", "stop"));
            running = false;
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        stop();
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
