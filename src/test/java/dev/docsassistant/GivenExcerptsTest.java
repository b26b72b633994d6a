package dev.docsassistant;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The openai provider ({@link OpenAiStub}) under a small prompt budget: the stream cites exactly the excerpts the
 * model was given (those of the prompt, then those of its own searches), never the hits the budget left out; and a
 * long conversation is answered, trimmed to the budget, not refused for its length.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false", "assistant.model.provider=openai", "assistant.model.max-steps=2",
        "assistant.model.prompt-token-budget=2500", ServiceTest.UNLIMITED_ADDRESS_RATE})
class GivenExcerptsTest extends ModelServerTest {

    /** The prompt's excerpt headings: {@code [n] Title (url)}. */
    private static final Pattern EXCERPT = Pattern.compile("(?m)^\\[(\\d+)] .* \\((https?://[^)\\s]+)\\)$");

    @Test
    void theSourcesAreTheExcerptsTheModelWasGiven() throws Exception {
        ObjectNode body = (ObjectNode) JSON.readTree(question("How do I configure the port, the threads and CORS?"));
        HttpResponse<String> answer = ask("acme", ACME_KEY, body.put("retrievalPageSize", 50).toString());
        assertEquals(200, answer.statusCode(), answer.body());

        List<String> given = excerptUrls(stub.requests.get(0).body().get("messages").get(0).get("content").asText());
        List<Part> parts = parts(answer.body());
        int searched = parts.stream().filter(p -> p.code().equals("a")).findFirst().orElseThrow()
                .value().get("result").size();
        assertTrue(given.size() < searched, "the budget left some of the " + searched + " hits out: " + given.size());
        assertEquals(given, sources(parts), "one h: source per excerpt, in the prompt's order");
    }

    @Test
    void theModelsOwnSearchesAreCitedAfterTheirResults() throws Exception {
        stub.then(stub.searchCall("call_1", "allowed origins CORS preflight"), stub.answer("Done."));
        ObjectNode body = (ObjectNode) JSON.readTree(question("How do I change the port?"));
        HttpResponse<String> answer = ask("acme", ACME_KEY, body.put("retrievalPageSize", 1).toString());
        assertEquals(200, answer.statusCode(), answer.body());

        List<String> given = excerptUrls(stub.requests.get(0).body().get("messages").get(0).get("content").asText());
        JsonNode second = stub.requests.get(1).body().get("messages");
        List<String> searched = excerptUrls(second.get(second.size() - 1).get("content").asText());
        assertTrue(!searched.isEmpty(), "the model's search found something");
        List<Part> parts = parts(answer.body());
        List<String> expected = new ArrayList<>(given);
        expected.addAll(searched);
        assertEquals(expected, sources(parts));
        int lastResult = 0;
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).code().equals("a")) {
                lastResult = i;
            }
        }
        assertEquals("h", parts.get(lastResult + 1).code(), "the search's sources follow its result");
    }

    @Test
    void aConversationOf150MessagesIsAnsweredTrimmedToTheBudget() throws Exception {
        ObjectNode body = JSON.createObjectNode().put("fp", "fp-long");
        ArrayNode messages = body.putArray("messages");
        for (int i = 0; i < 150; i++) { // the last, a user's, is the question
            String role = i % 2 == 1 ? "user" : "assistant";
            String text = i == 149 ? "How do I change the port?" : "Turn " + i + " about threads and limits.";
            ObjectNode message = messages.addObject().put("id", "m" + i).put("role", role).put("content", text);
            message.putArray("parts").addObject().put("type", "text").put("text", text);
        }
        assertEquals(150, messages.size());
        HttpResponse<String> answer = ask("acme", ACME_KEY, body.toString());
        assertEquals(200, answer.statusCode(), answer.body());
        JsonNode sent = stub.requests.get(0).body().get("messages");
        assertTrue(sent.size() < 150, "trimmed to the budget: " + sent.size() + " messages");
        assertTrue(sent.get(sent.size() - 1).get("content").asText().endsWith("How do I change the port?"));
    }

    /** The pages of the excerpts in a prompt or tool result (an excerpt names its section, a source its page). */
    private static List<String> excerptUrls(String text) {
        Matcher excerpt = EXCERPT.matcher(text);
        List<String> urls = new ArrayList<>();
        while (excerpt.find()) {
            urls.add(excerpt.group(2).replaceFirst("#.*", ""));
        }
        return urls;
    }

    private static List<String> sources(List<Part> parts) {
        return parts.stream().filter(p -> p.code().equals("h")).map(p -> p.value().get("url").asText()).toList();
    }
}
