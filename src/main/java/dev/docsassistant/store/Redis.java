package dev.docsassistant.store;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.RedisClusterURIUtil;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

/**
 * The one Lettuce connection an instance shares for all its Redis work. It is thread-safe and multiplexed, which is
 * how Lettuce is meant to be used for plain commands and scripts (a pool only pays off for MULTI or blocking
 * commands, which nothing here uses: every multi-step change is one Lua script). Lettuce reconnects by itself; while
 * it is disconnected commands are rejected at once, and every command is bounded by the timeout, so no request waits
 * on a Redis that is gone.
 * <p>
 * A standalone or Sentinel-watched Redis is reached through Lettuce's {@link RedisClient}, a Redis Cluster through
 * its {@link RedisClusterClient}; both connections offer the same {@link RedisClusterCommands}, which is all the
 * store uses, so the rate limiter and thread store have one code path. On a Cluster each script's keys share one
 * hash slot (their hash tags see to it), so Lettuce routes the whole script to the node that owns it.
 * <p>
 * The connection is opened on first use, not at construction: Camel creates YAML beans twice at start-up, and a
 * service whose Redis is down must still start (and degrade as configured).
 */
public final class Redis implements AutoCloseable {

    private static final String CLUSTER = "redis-cluster://";
    private static final String CLUSTER_TLS = "rediss-cluster://";

    /** Seed nodes of a Cluster; one URI (perhaps naming Sentinels) otherwise. */
    private final List<RedisURI> uris;
    private final boolean cluster;
    private final Duration timeout;
    private AbstractRedisClient client;
    private StatefulConnection<String, String> connection;
    private volatile RedisClusterCommands<String, String> commands;

    /**
     * @param url      {@code redis://[[user:]password@]host[:port][/database]}, {@code rediss://} for TLS,
     *                 {@code redis-sentinel://[password@]host[:port][,host2[:port2]][/database]#masterName}, or
     *                 {@code redis-cluster://[[user:]password@]host:port[,host2:port2…]} ({@code rediss-cluster://}
     *                 for TLS) naming some of a Cluster's nodes, from which Lettuce learns the rest
     * @param username the ACL user, or empty for the URL's (or the default user)
     * @param password the password, or empty for the URL's: kept apart from the URL so that it can come from a
     *                 secret and is masked in Camel's start-up summary, which prints the URL as it is
     * @param timeout  bounds connecting and every command
     */
    public Redis(String url, String username, String password, Duration timeout) {
        this.cluster = url.startsWith(CLUSTER) || url.startsWith(CLUSTER_TLS);
        this.uris = cluster ? clusterNodes(url) : List.of(RedisURI.create(url));
        for (RedisURI uri : uris) {
            if (!username.isEmpty()) {
                uri.setUsername(username);
            }
            if (!password.isEmpty()) {
                uri.setPassword(password.toCharArray());
            }
            uri.setTimeout(timeout);
        }
        this.timeout = timeout;
    }

    /**
     * The seed nodes of {@code redis-cluster://[[user:]password@]host:port[,host:port…]}, parsed by Lettuce as the
     * {@code redis://} (or {@code rediss://}) URL with the same hosts. A Cluster has only database 0, so a database
     * in the URL is a mistake, reported at start rather than ignored.
     */
    private static List<RedisURI> clusterNodes(String url) {
        URI nodes = URI.create(url.replaceFirst("-cluster://", "://"));
        String path = nodes.getPath() == null ? "" : nodes.getPath();
        if (!(path.isEmpty() || path.equals("/") || path.equals("/0")) || nodes.getFragment() != null) {
            throw new IllegalArgumentException("assistant.redis.url: a Cluster URL is "
                    + "redis-cluster://[[user:]password@]host:port[,host:port…], without a database (a Cluster has "
                    + "only database 0)");
        }
        return RedisClusterURIUtil.toRedisURIs(nodes);
    }

    /** Runs a Lua script atomically on the server (on a Cluster, on the node owning the keys' slot). */
    public <T> T eval(String script, ScriptOutputType type, String[] keys, String... args) {
        return commands().eval(script, type, keys, args);
    }

    public String ping() {
        return commands().ping();
    }

    public Duration timeout() {
        return timeout;
    }

    private RedisClusterCommands<String, String> commands() {
        RedisClusterCommands<String, String> open = commands;
        return open != null ? open : connect();
    }

    private synchronized RedisClusterCommands<String, String> connect() {
        if (commands == null) {
            if (client == null) {
                // Reconnect attempts back off to at most 5 s (Lettuce's default is 30 s): service resumes soon
                // after Redis does.
                ClientResources resources = ClientResources.builder()
                        .reconnectDelay(Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(5), 2,
                                TimeUnit.MILLISECONDS))
                        .build();
                ClientOptions options = ClientOptions.builder()
                        .autoReconnect(true)
                        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                        .socketOptions(SocketOptions.builder().connectTimeout(timeout).keepAlive(true).build())
                        .timeoutOptions(TimeoutOptions.enabled(timeout))
                        .build();
                if (cluster) {
                    RedisClusterClient clusterClient = RedisClusterClient.create(resources, uris);
                    // The topology is read again every 30 s and at once on MOVED/ASK redirects and on reconnects,
                    // so a failover or resharding is followed without a restart (Lettuce refreshes never by default).
                    clusterClient.setOptions(ClusterClientOptions.builder(options)
                            .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                                    .enablePeriodicRefresh(Duration.ofSeconds(30))
                                    .enableAllAdaptiveRefreshTriggers()
                                    .build())
                            .build());
                    client = clusterClient;
                } else {
                    RedisClient standalone = RedisClient.create(resources);
                    standalone.setOptions(options);
                    client = standalone;
                }
            }
            // Both throw RedisConnectionException until Redis answers.
            if (client instanceof RedisClusterClient clusterClient) {
                StatefulRedisClusterConnection<String, String> open = clusterClient.connect();
                connection = open;
                commands = open.sync();
            } else {
                StatefulRedisConnection<String, String> open = ((RedisClient) client).connect(uris.get(0));
                connection = open;
                commands = open.sync();
            }
        }
        return commands;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            connection.close();
            connection = null;
            commands = null;
        }
        if (client != null) {
            client.shutdown(Duration.ZERO, timeout);
            client.getResources().shutdown(0, timeout.toMillis(), TimeUnit.MILLISECONDS);
            client = null;
        }
    }

    /** The URL without its password, for logs. */
    @Override
    public String toString() {
        RedisURI uri = uris.get(0);
        if (cluster) {
            return (uri.isSsl() ? CLUSTER_TLS : CLUSTER)
                    + uris.stream().map(node -> node.getHost() + ':' + node.getPort()).collect(Collectors.joining(","));
        }
        return (uri.getSentinels().isEmpty() ? (uri.isSsl() ? "rediss://" : "redis://") + uri.getHost() + ':'
                + uri.getPort() : "redis-sentinel://" + uri.getSentinelMasterId()) + '/' + uri.getDatabase();
    }
}
