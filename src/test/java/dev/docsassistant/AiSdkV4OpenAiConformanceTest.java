package dev.docsassistant;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real AI SDK v4 client ({@link V4ChatClient}) against the openai provider, the model searching in a step of
 * its own in the first turn: the SDK's strict parser accepts every part, the text is the model's, the usage the
 * server's, and the thread continues.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.model.provider=openai", "assistant.model.max-steps=2"})
class AiSdkV4OpenAiConformanceTest extends ModelServerTest {

    @Test
    void useChatParsesTheModelsStepsAndContinuesTheThread() throws Exception {
        stub.then(stub.searchCall("call_7", "change the port"), stub.answer("Set ", "camel.server.port", "."));
        JsonNode turns = V4ChatClient.twoTurns(uri(""), "acme", ACME_KEY, "How do I change the port?",
                "And how do I continue a conversation?");

        JsonNode first = turns.get(0);
        assertEquals("Set camel.server.port.", first.get("content").asText());
        assertEquals("stop", first.get("finishReason").asText());
        assertEquals(OpenAiStub.PROMPT_TOKENS * 2, first.get("usage").get("promptTokens").asLong(), "both steps");
        String partTypes = first.get("parts").findValuesAsText("type").toString();
        // the excerpts the model was given, then its own search and the excerpts that search gave it
        assertTrue(partTypes.matches("\\[step-start, tool-invocation, step-start, (source, )+tool-invocation, "
                + "(source, )+step-start, text]"), partTypes);
        JsonNode modelSearch = first.get("toolInvocations").get(1);
        assertEquals("call_7", modelSearch.get("toolCallId").asText());
        assertEquals("result", modelSearch.get("state").asText());
        assertEquals("change the port", modelSearch.get("args").get("query").asText());

        JsonNode second = turns.get(1);
        assertEquals(first.get("headers").get("x-thread-id"), second.get("headers").get("x-thread-id"));
        assertEquals(OpenAiStub.DEFAULT_ANSWER, second.get("content").asText());
        assertEquals(first.get("threadIdFromData"), second.get("threadIdFromData"));
    }
}
