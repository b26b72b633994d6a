package dev.docsassistant;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

/**
 * A real Redis Sentinel on a free loopback port watching one {@link RedisServer} as master {@value #MASTER}: it logs
 * in to it (and its replicas) as the ACL user, calls it down after a second of silence and fails over alone (quorum
 * 1). Started from a config file of its own in {@code target/}, which Sentinel rewrites as it learns the topology.
 */
final class RedisSentinel implements AutoCloseable {

    static final String MASTER = "docs";

    private final int port;
    private final File config;
    private final Process process;

    private RedisSentinel(int port, File config, Process process) {
        this.port = port;
        this.config = config;
        this.process = process;
    }

    /** Starts one watching {@code master}, ready once it names the master (the caller has skipped without Redis). */
    static RedisSentinel watching(RedisServer master) throws IOException, InterruptedException {
        int port = RedisServer.freePort();
        File config = new File("target/redis-sentinel-" + port + ".conf").getAbsoluteFile();
        Files.writeString(config.toPath(), String.join("\n",
                "port " + port,
                "bind 127.0.0.1",
                "sentinel monitor " + MASTER + " 127.0.0.1 " + master.port() + " 1",
                "sentinel auth-user " + MASTER + " " + RedisServer.USER,
                "sentinel auth-pass " + MASTER + " " + RedisServer.PASSWORD,
                "sentinel down-after-milliseconds " + MASTER + " 1000",
                "sentinel failover-timeout " + MASTER + " 10000", ""));
        Process process = new ProcessBuilder("redis-server", config.getPath(), "--sentinel").redirectErrorStream(true)
                .redirectOutput(new File("target/redis-sentinel-" + port + ".log")).start();
        RedisSentinel sentinel = new RedisSentinel(port, config, process);
        try {
            sentinel.awaitMaster(master.port(), Duration.ofSeconds(10));
        } catch (RuntimeException | InterruptedException e) {
            sentinel.close();
            throw e;
        }
        return sentinel;
    }

    int port() {
        return port;
    }

    /** Waits until this Sentinel names the server on {@code masterPort} as the master (after a failover, say). */
    void awaitMaster(int masterPort, Duration within) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!master().equals(List.of("127.0.0.1", Integer.toString(masterPort)))) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("Sentinel on port " + port + " names " + master()
                        + " as the master, not port " + masterPort);
            }
            Thread.sleep(50);
        }
    }

    private List<String> master() throws IOException, InterruptedException {
        return RedisServer.run(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port),
                "SENTINEL", "get-master-addr-by-name", MASTER)).lines().map(String::trim).toList();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            process.waitFor();
        }
        config.delete();
    }
}
