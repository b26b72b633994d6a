package dev.docsassistant;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real Vercel AI SDK v4 client ({@code ai@4.3.19}, {@code @ai-sdk/ui-utils@1.2.11}, installed by the build
 * from src/test/node/package-lock.json) against the running service: it posts what useChat posts, parses every
 * part with the SDK's own strict parser, and continues the thread in a second turn.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml"})
class AiSdkV4ConformanceTest extends ServiceTest {

    @Test
    void useChatParsesTheStreamAndContinuesTheThread() throws Exception {
        Path nodeDir = Path.of(System.getProperty("node.dir", "src/test/node"));
        assertTrue(Files.isDirectory(nodeDir.resolve("node_modules/ai")),
                "run 'npm ci' in " + nodeDir + " (the Maven build does it in process-test-resources)");
        Process node = new ProcessBuilder("node", "v4-chat.mjs", uri("").toString(), "acme", ACME_KEY,
                "How do I change the port?", "And how do I continue a conversation?")
                .directory(nodeDir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String stdout = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "the SDK client finished");
        assertEquals(0, node.exitValue(), "the SDK accepted every part; stdout: " + stdout);

        JsonNode turns = JSON.readTree(stdout).get("turns");
        JsonNode first = turns.get(0);
        String threadId = first.get("headers").get("x-thread-id").asText();
        assertTrue(threadId.startsWith("thr_"), first.toString());
        assertEquals(threadId, first.get("threadIdFromData").asText(), "the finish data part carries the thread");
        assertEquals("stop", first.get("finishReason").asText());
        assertTrue(first.get("usage").get("completionTokens").asLong() > 0);
        assertTrue(first.get("content").asText().contains("camel.server.port"), first.get("content").asText());
        assertEquals("v1", first.get("headers").get("x-vercel-ai-data-stream").asText());

        String partTypes = first.get("parts").findValuesAsText("type").toString();
        assertTrue(partTypes.startsWith("[step-start, tool-invocation, step-start, source"), partTypes);
        assertTrue(partTypes.endsWith("text]"), partTypes);
        JsonNode invocation = first.get("parts").get(1).get("toolInvocation");
        assertEquals("result", invocation.get("state").asText());
        assertEquals("search", invocation.get("toolName").asText());
        assertFalse(invocation.get("result").isEmpty());

        JsonNode second = turns.get(1);
        assertEquals(200, second.get("status").asInt());
        assertEquals(threadId, second.get("headers").get("x-thread-id").asText(), "the thread continued");
        assertTrue(second.get("headers").get("x-thread-key").isNull(), "no new key for a continued thread");
        assertEquals(threadId, second.get("threadIdFromData").asText());
        assertFalse(second.get("content").asText().isBlank());
    }
}
