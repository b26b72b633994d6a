package dev.docsassistant.store;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

/**
 * The one Lettuce connection an instance shares for all its Redis work. It is thread-safe and multiplexed, which is
 * how Lettuce is meant to be used for plain commands and scripts (a pool only pays off for MULTI or blocking
 * commands, which nothing here uses: every multi-step change is one Lua script). Lettuce reconnects by itself; while
 * it is disconnected commands are rejected at once, and every command is bounded by the timeout, so no request waits
 * on a Redis that is gone.
 * <p>
 * The connection is opened on first use, not at construction: Camel creates YAML beans twice at start-up, and a
 * service whose Redis is down must still start (and degrade as configured).
 */
public final class Redis implements AutoCloseable {

    private final RedisURI uri;
    private final Duration timeout;
    private RedisClient client;
    private volatile StatefulRedisConnection<String, String> connection;

    /**
     * @param url      {@code redis://[[user:]password@]host[:port][/database]}, {@code rediss://} for TLS, or
     *                 {@code redis-sentinel://[password@]host[:port][,host2[:port2]][/database]#masterName}
     * @param username the ACL user, or empty for the URL's (or the default user)
     * @param password the password, or empty for the URL's: kept apart from the URL so that it can come from a
     *                 secret and is masked in Camel's start-up summary, which prints the URL as it is
     * @param timeout  bounds connecting and every command
     */
    public Redis(String url, String username, String password, Duration timeout) {
        this.uri = RedisURI.create(url);
        if (!username.isEmpty()) {
            uri.setUsername(username);
        }
        if (!password.isEmpty()) {
            uri.setPassword(password.toCharArray());
        }
        this.uri.setTimeout(timeout);
        this.timeout = timeout;
    }

    /** Runs a Lua script atomically on the server. */
    public <T> T eval(String script, ScriptOutputType type, String[] keys, String... args) {
        return commands().eval(script, type, keys, args);
    }

    public String ping() {
        return commands().ping();
    }

    public Duration timeout() {
        return timeout;
    }

    private RedisCommands<String, String> commands() {
        StatefulRedisConnection<String, String> open = connection;
        return open != null ? open.sync() : connect();
    }

    private synchronized RedisCommands<String, String> connect() {
        if (connection == null) {
            if (client == null) {
                // Reconnect attempts back off to at most 5 s (Lettuce's default is 30 s): service resumes soon
                // after Redis does.
                client = RedisClient.create(ClientResources.builder()
                        .reconnectDelay(Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(5), 2,
                                TimeUnit.MILLISECONDS))
                        .build());
                client.setOptions(ClientOptions.builder()
                        .autoReconnect(true)
                        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                        .socketOptions(SocketOptions.builder().connectTimeout(timeout).keepAlive(true).build())
                        .timeoutOptions(TimeoutOptions.enabled(timeout))
                        .build());
            }
            connection = client.connect(uri); // throws RedisConnectionException until Redis answers
        }
        return connection.sync();
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            connection.close();
            connection = null;
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
        return (uri.getSentinels().isEmpty() ? (uri.isSsl() ? "rediss://" : "redis://") + uri.getHost() + ':'
                + uri.getPort() : "redis-sentinel://" + uri.getSentinelMasterId()) + '/' + uri.getDatabase();
    }
}
