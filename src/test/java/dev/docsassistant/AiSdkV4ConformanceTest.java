package dev.docsassistant;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real Vercel AI SDK v4 client ({@link V4ChatClient}) against the running service with the extractive model:
 * it posts what useChat posts, parses every part with the SDK's own strict parser, and continues the thread.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml"})
class AiSdkV4ConformanceTest extends ServiceTest {

    @Test
    void useChatParsesTheStreamAndContinuesTheThread() throws Exception {
        JsonNode turns = V4ChatClient.twoTurns(uri(""), "acme", ACME_KEY, "How do I change the port?",
                "And how do I continue a conversation?");
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

    @Test
    void theThreadIdOfTheFinishEventAloneContinuesTheThread() throws Exception {
        JsonNode turns = V4ChatClient.twoTurnsByThreadId(uri(""), "acme", ACME_KEY, "How do I change the port?",
                "And how do I continue a conversation?");
        String threadId = turns.get(0).get("threadIdFromFinish").asText();
        JsonNode second = turns.get(1);
        assertFalse(second.get("requestBody").has("threadKey"), second.get("requestBody").toString());
        assertEquals(200, second.get("status").asInt());
        assertEquals(threadId, second.get("threadIdFromFinish").asText(), "the thread continued");
        assertTrue(second.get("headers").get("x-thread-key").isNull(), "no new thread");
        assertEquals(2, recordedThread(threadId, 2).turns().size());
    }

    /** Mintlify's documented address (/discovery/v1/assistant/…): the same stream and thread as the plain path. */
    @Test
    void theDiscoveryPrefixAnswersAsThePlainPath() throws Exception {
        JsonNode turns = V4ChatClient.twoTurns(uri("/discovery"), "acme", ACME_KEY, "How do I change the port?",
                "And how do I continue a conversation?");
        JsonNode first = turns.get(0);
        assertTrue(first.get("content").asText().contains("camel.server.port"), first.get("content").asText());
        String partTypes = first.get("parts").findValuesAsText("type").toString();
        assertTrue(partTypes.startsWith("[step-start, tool-invocation, step-start, source"), partTypes);
        String threadId = first.get("headers").get("x-thread-id").asText();
        assertEquals(threadId, turns.get(1).get("headers").get("x-thread-id").asText(), "the thread continued");
        assertEquals(2, recordedThread(threadId, 2).turns().size());
    }
}
