package dev.docsassistant;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real Vercel AI SDK v4 client ({@code ai@4.3.19}, {@code @ai-sdk/ui-utils@1.2.11}, installed by the build from
 * src/test/node/package-lock.json): {@code v4-chat.mjs} posts what useChat posts, parses every part with the SDK's
 * own strict parser, and continues the thread in a second turn.
 */
final class V4ChatClient {

    private V4ChatClient() {
    }

    /** Both turns as the SDK saw them ({@code turns[0]}, {@code turns[1]}); fails unless the SDK accepted all. */
    static JsonNode twoTurns(URI service, String domain, String key, String first, String second) throws Exception {
        return run(service, domain, key, first, second);
    }

    /** As {@link #twoTurns}, the follow-up carrying only the {@code threadId} of the finish event (Mintlify's docs). */
    static JsonNode twoTurnsByThreadId(URI service, String domain, String key, String first, String second)
            throws Exception {
        return run(service, domain, key, first, second, "threadIdOnly");
    }

    private static JsonNode run(URI service, String domain, String key, String... turnsAndMode) throws Exception {
        Path nodeDir = Path.of(System.getProperty("node.dir", "src/test/node"));
        assertTrue(Files.isDirectory(nodeDir.resolve("node_modules/ai")),
                "run 'npm ci' in " + nodeDir + " (the Maven build does it in process-test-resources)");
        List<String> command = new ArrayList<>(List.of("node", "v4-chat.mjs", service.toString(), domain, key));
        command.addAll(List.of(turnsAndMode));
        Process node = new ProcessBuilder(command)
                .directory(nodeDir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String stdout = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "the SDK client finished");
        assertEquals(0, node.exitValue(), "the SDK accepted every part; stdout: " + stdout);
        return new ObjectMapper().readTree(stdout).get("turns");
    }
}
