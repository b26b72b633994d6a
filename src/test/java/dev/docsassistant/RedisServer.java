package dev.docsassistant;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.docsassistant.store.Redis;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real {@code redis-server} on a free loopback port, with an ACL user (the default user is off), no persistence,
 * started and stopped by the test, and crashed or paused on purpose to see what the service does then.
 * {@code .ci/run} installs the binary; on a machine without it the tests that need it are skipped with a message
 * (and fail under CI, which must never skip them).
 */
public final class RedisServer implements AutoCloseable {

    static final String USER = "assistant";
    static final String PASSWORD = "s3cret-pw";

    private final int port;
    private final List<String> options;
    private Process process;
    private Redis client;

    private RedisServer(int port, List<String> options) {
        this.port = port;
        this.options = options;
    }

    /**
     * One server for a test class ({@code @RegisterExtension static}): started before its first test, or the class
     * is skipped as by {@link #startOrSkip()}; stopped, with its client, after its last.
     */
    public static final class PerClass implements BeforeAllCallback, AfterAllCallback {

        private RedisServer server;

        @Override
        public void beforeAll(ExtensionContext context) throws Exception {
            server = startOrSkip();
        }

        @Override
        public void afterAll(ExtensionContext context) throws Exception {
            if (server != null) {
                server.close();
            }
        }

        public RedisServer server() {
            return server;
        }

        public Redis client() {
            return server.client();
        }
    }

    /** Starts one, or skips the calling test class when redis-server is not installed. */
    public static RedisServer startOrSkip() throws IOException, InterruptedException {
        return startOrSkip(port -> List.of());
    }

    interface Options {
        List<String> forPort(int port);
    }

    /** Starts one with more {@code redis-server} options (given its port), or skips as {@link #startOrSkip()}. */
    static RedisServer startOrSkip(Options more) throws IOException, InterruptedException {
        if (!onPath("redis-server") && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("redis-server is not installed: .ci/run must install it");
        }
        Assumptions.assumeTrue(onPath("redis-server"),
                "redis-server is not installed (apt-get install redis-server; .ci/run does): Redis tests skipped");
        int port = freePort();
        RedisServer server = new RedisServer(port, more.forPort(port));
        server.start();
        return server;
    }

    /** Skips the calling test class (fails it under CI) without redis-cli, which sets up Clusters and Sentinels. */
    static void cliOrSkip() {
        if (!onPath("redis-cli") && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException("redis-cli is not installed: .ci/run must install redis-server");
        }
        Assumptions.assumeTrue(onPath("redis-cli"), "redis-cli is not installed (apt-get install redis-server; "
                + ".ci/run does): Redis Cluster and Sentinel tests skipped");
    }

    static int freePort() throws IOException {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return free.getLocalPort();
        }
    }

    /** A URL for this server with the ACL user and password in it, and a database other than 0. */
    public String url(int database) {
        return "redis://" + USER + ":" + PASSWORD + "@" + address(database);
    }

    int port() {
        return port;
    }

    /** Host, port and database, without credentials. */
    String address(int database) {
        return "127.0.0.1:" + port + "/" + database;
    }

    /** (Re)starts on the same port, empty. */
    void start() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", "target", // where a replica keeps the master's snapshot: not the project's root
                "--user", "default", "off",
                "--user", USER, "on", ">" + PASSWORD, "~*", "&*", "+@all"));
        command.addAll(options);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(new File("target/redis-" + port + ".log")).start(); // read it when one fails
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!answers()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server did not start on port " + port);
            }
            Thread.sleep(20);
        }
    }

    /** Runs a command on it as the ACL user; its reply as redis-cli prints it. */
    String cli(String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port),
                "--user", USER, "--pass", PASSWORD, "--no-auth-warning"));
        line.addAll(List.of(command));
        return run(line);
    }

    /** Runs a Redis tool to its end; what it printed. */
    static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return output;
    }

    /** Crashes it (SIGKILL): connections drop at once, and its data is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Freezes it (SIGSTOP): connections stay open but nothing is answered, as with a hung or partitioned server. */
    void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    /** The service's own Redis client on database 0, made once and closed with the server. */
    public synchronized Redis client() {
        if (client == null) {
            client = new Redis(url(0), "", "", Duration.ofSeconds(5));
        }
        return client;
    }

    @Override
    public void close() throws InterruptedException {
        if (client != null) {
            client.close();
        }
        if (process != null && process.isAlive()) {
            process.destroy();
            process.waitFor();
        }
    }

    private void signal(String name) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    /** Any reply to PING (NOAUTH included) means the server is up. */
    private boolean answers() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(1000);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return in.read() != -1;
        } catch (IOException e) {
            return false;
        }
    }

    static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (new File(dir, command).canExecute()) {
                return true;
            }
        }
        return false;
    }
}
