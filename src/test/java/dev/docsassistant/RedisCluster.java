package dev.docsassistant;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A real three-master Redis Cluster on free loopback ports: three {@link RedisServer}s in cluster mode (same ACL
 * user, no persistence), joined by {@code redis-cli --cluster create}, ready once every node says
 * {@code cluster_state:ok}. Skipped like {@link RedisServer} where redis-server or redis-cli is missing.
 */
final class RedisCluster implements AutoCloseable {

    private final List<RedisServer> nodes = new ArrayList<>();

    static RedisCluster startOrSkip() throws Exception {
        RedisServer.cliOrSkip();
        RedisCluster cluster = new RedisCluster();
        try {
            cluster.start();
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void start() throws Exception {
        for (int i = 0; i < 3; i++) {
            nodes.add(RedisServer.startOrSkip(port -> {
                File config = new File("target/redis-cluster-" + port + ".conf").getAbsoluteFile();
                config.delete(); // a stale one from an earlier run would name other nodes
                return List.of("--cluster-enabled", "yes", "--cluster-config-file", config.getPath(),
                        "--cluster-node-timeout", "2000");
            }));
        }
        List<String> create = new ArrayList<>(List.of("redis-cli", "--user", RedisServer.USER, "--pass",
                RedisServer.PASSWORD, "--no-auth-warning", "--cluster", "create"));
        nodes.forEach(node -> create.add("127.0.0.1:" + node.port()));
        create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        String created = RedisServer.run(create);
        if (!created.contains("All 16384 slots covered")) {
            throw new IllegalStateException("redis-cli --cluster create failed:\n" + created);
        }
        awaitClusterStateOk();
    }

    /** Restarts every node (after {@link RedisServer#kill()}): they meet again from their config files, empty. */
    void restart() throws Exception {
        for (RedisServer node : nodes) {
            node.start();
        }
        awaitClusterStateOk();
    }

    private void awaitClusterStateOk() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (RedisServer node : nodes) {
            while (!node.cli("CLUSTER", "INFO").contains("cluster_state:ok")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the cluster did not reach cluster_state:ok");
                }
                Thread.sleep(50);
            }
        }
    }

    /** {@code host:port,…} of nodes {@code from} (inclusive) to {@code to} (exclusive), as seeds for a URL. */
    String seeds(int from, int to) {
        return nodes.subList(from, to).stream().map(node -> "127.0.0.1:" + node.port())
                .collect(Collectors.joining(","));
    }

    List<RedisServer> nodes() {
        return nodes;
    }

    @Override
    public void close() throws InterruptedException {
        for (RedisServer node : nodes) {
            node.close();
            new File("target/redis-cluster-" + node.port() + ".conf").delete();
        }
    }
}
