package dev.docsassistant;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.docsassistant.ratelimit.RedisRateLimiter;
import dev.docsassistant.store.Redis;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.RedisThreadStore;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo Redis's ACL user, as k8s/components/redis/redis.yaml declares it, on a real redis-server: the service's
 * quotas (Lua scripts run with EVAL) and threads work logged in as that user, and the commands a stolen password
 * should not reach (wiping, reconfiguring, listing every key) are refused.
 */
class RedisAclTest {

    private static final String PASSWORD = "pw-from-the-secret";

    @Test
    void theServicesUserRunsItsScriptsAndThreadsAndNothingDangerous() throws Exception {
        List<String> user = manifestUser();
        try (RedisServer server = RedisServer.startOrSkip(port -> user);
             Redis redis = new Redis("redis://" + server.address(0), "docs-assistant", PASSWORD,
                     Duration.ofSeconds(5))) {
            RedisRateLimiter quotas = new RedisRateLimiter(redis);
            assertEquals(9, quotas.acquire("org:acme", 10, Duration.ofHours(1)).remaining());
            RedisThreadStore threads = new RedisThreadStore(redis, 1440, 50, 262_144);
            threads.save(new ChatThread("thr_1", "acme", "acme", "fp", "hash", Instant.now(), List.of(
                    new ChatThread.Turn(Instant.now(), "msg_1", "q", "a", List.of(), true, true, null))));
            assertTrue(threads.find("thr_1").isPresent());

            for (List<String> refused : List.of(List.of("FLUSHALL"), List.of("CONFIG", "SET", "maxmemory", "1"),
                    List.of("KEYS", "*"), List.of("ACL", "LIST"))) {
                List<String> command = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(server.port()),
                        "--user", "docs-assistant", "--pass", PASSWORD, "--no-auth-warning"));
                command.addAll(refused);
                String reply = RedisServer.run(command);
                assertTrue(reply.contains("NOPERM"), refused + ": " + reply);
            }
            String anonymous = RedisServer.run(List.of("redis-cli", "-p", Integer.toString(server.port()), "PING"));
            assertTrue(anonymous.contains("NOAUTH"), "the default user is off: " + anonymous);
        }
    }

    /**
     * The manifest's {@code --user} options for the service's user, its password as the kubelet expands
     * {@code $(REDIS_PASSWORD)}; and the default user turned off, as the manifest does.
     */
    private static List<String> manifestUser() throws Exception {
        List<String> args = new ArrayList<>();
        try (MappingIterator<JsonNode> documents = new YAMLMapper().readerFor(JsonNode.class)
                .readValues(Path.of("k8s/components/redis/redis.yaml").toFile())) {
            JsonNode deployment = documents.next();
            deployment.at("/spec/template/spec/containers/0/args").forEach(a -> args.add(a.asText()));
        }
        int at = args.indexOf("docs-assistant");
        assertTrue(at > 0 && args.get(at - 1).equals("--user"), args.toString());
        List<String> user = new ArrayList<>(List.of("--user"));
        for (String arg : args.subList(at, args.size())) {
            if (arg.startsWith("--")) {
                break;
            }
            user.add(arg.replace("$(REDIS_PASSWORD)", PASSWORD));
        }
        int off = args.indexOf("default");
        assertEquals(List.of("--user", "default", "off"), args.subList(off - 1, off + 2));
        return user;
    }
}
