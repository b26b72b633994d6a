package dev.docsassistant;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real Vercel AI SDK v5, v6 and v7 clients (installed by the build from src/test/node/package-lock.json under
 * npm aliases) against the running /v2 endpoint: each posts what its DefaultChatTransport posts, parses the UI
 * message stream with its own chat state code (what useChat runs), reads the thread id from the assistant
 * message's metadata, and continues the thread in a second turn that echoes the first answer's parts back.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml"})
class AiSdkV5ConformanceTest extends ServiceTest {

    private static final String CHUNKS = "start,start-step,tool-input-available,tool-output-available,finish-step,"
            + "start-step,(source-url,)+text-start,(text-delta,)+text-end,finish-step,finish";

    /** {@code base}: "" or Mintlify's documented /discovery, where a widget that changes only the host calls. */
    @ParameterizedTest(name = "{0} {2}")
    @CsvSource({
            "ai-v5-0-0, 5.0.0, ''", // the first v5: strict chunk schemas, no finishReason on finish
            "ai-v5, 5., ''",
            "ai-v6, 6., ''",
            "ai-v7, 7., ''",
            "ai-v5-0-0, 5.0.0, /discovery",
            "ai-v7, 7., /discovery"})
    void useChatParsesTheStreamAndContinuesTheThread(String client, String version, String base) throws Exception {
        JsonNode run = chat(base, client, "How do I change the port?", "And how do I continue a conversation?");
        assertTrue(run.get("version").asText().startsWith(version), run.get("version").asText());

        JsonNode first = run.get("turns").get(0);
        JsonNode headers = first.get("headers");
        assertEquals("text/event-stream", headers.get("content-type").asText());
        assertEquals("v1", headers.get("x-vercel-ai-ui-message-stream").asText());
        String threadId = headers.get("x-thread-id").asText();
        assertTrue(threadId.startsWith("thr_"), first.toString());
        JsonNode message = first.get("message");
        assertEquals(threadId, message.get("metadata").get("threadId").asText(), "threadId from message.metadata");

        String chunks = String.join(",", JSON.convertValue(first.get("chunkTypes"), String[].class));
        assertTrue(chunks.matches(CHUNKS), chunks);
        assertTrue(first.get("endsWithDone").asBoolean());

        String partTypes = message.get("parts").findValuesAsText("type").toString();
        assertTrue(partTypes.matches("\\[step-start, tool-search, step-start, (source-url, )+text]"), partTypes);
        JsonNode search = message.get("parts").get(1);
        assertEquals("output-available", search.get("state").asText());
        assertEquals("How do I change the port?", search.get("input").get("query").asText());
        assertEquals("/configuration/properties", search.get("output").get(0).get("path").asText());
        assertTrue(first.get("text").asText().contains("camel.server.port"), first.get("text").asText());

        JsonNode request = first.get("requestBody");
        assertEquals("submit-message", request.get("trigger").asText());
        assertFalse(request.get("id").asText().isEmpty(), "the chat id");
        assertTrue(request.get("fp").asText().startsWith("fp-"), "body fields are merged in");
        assertNull(request.get("messages").get(0).get("content"), "v5 messages have no content");

        JsonNode second = run.get("turns").get(1);
        assertEquals(200, second.get("status").asInt());
        assertEquals(threadId, second.get("headers").get("x-thread-id").asText(), "the thread continued");
        assertTrue(second.get("headers").get("x-thread-key").isNull(), "no new key for a continued thread");
        assertEquals(threadId, second.get("message").get("metadata").get("threadId").asText());
        assertEquals("tool-search", second.get("requestBody").get("messages").get(1).get("parts").get(1)
                .get("type").asText(), "the first answer's tool part was echoed back and accepted");
        assertFalse(second.get("text").asText().isBlank());

        assertEquals(2, recordedThread(threadId, 2).turns().size(), "both turns recorded");
    }

    private JsonNode chat(String base, String client, String... questions) throws Exception {
        Path nodeDir = Path.of(System.getProperty("node.dir", "src/test/node"));
        assertTrue(Files.isDirectory(nodeDir.resolve("node_modules/" + client)),
                "run 'npm ci' in " + nodeDir + " (the Maven build does it in process-test-resources)");
        Process node = new ProcessBuilder("node", "v5-chat.mjs", client, uri(base).toString(), "acme", ACME_KEY,
                questions[0], questions[1])
                .directory(nodeDir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String stdout = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "the SDK client finished");
        assertEquals(0, node.exitValue(), client + " accepted every chunk; stdout: " + stdout);
        return JSON.readTree(stdout);
    }
}
