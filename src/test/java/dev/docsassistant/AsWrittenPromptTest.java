package dev.docsassistant;

import java.net.http.HttpResponse;

import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The language model's prompt holds the docs as written ({@link AsWrittenTest}'s page, through the openai stub). */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-as-written.yaml",
        "assistant.search.semantic=false", "assistant.model.provider=openai", ServiceTest.UNLIMITED_ADDRESS_RATE})
class AsWrittenPromptTest extends ModelServerTest {

    @Test
    void thePromptHoldsTheSectionAsWritten() throws Exception {
        HttpResponse<String> response = ask("written", ACME_KEY, question("How do I revoke a token?"));
        assertEquals(200, response.statusCode(), response.body());

        String prompt = stub.requests.get(0).body().get("messages").get(0).get("content").asText();
        AsWrittenTest.assertAsWritten("the prompt", prompt);
        assertTrue(prompt.contains(AsWrittenTest.SECTION), "prose, then each block in its own fence: " + prompt);
    }
}
