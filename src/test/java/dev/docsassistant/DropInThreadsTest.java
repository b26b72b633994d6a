package dev.docsassistant;

import java.net.http.HttpResponse;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import dev.docsassistant.thread.ChatThread;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Threads as Mintlify documents them, over plain HTTP against {@link OpenAiStub}: the {@code threadId} of the finish
 * event alone continues the thread; a follow-up carrying only its newest message gets the recorded turns as its
 * history, at once, an answer cut short marked so; a client's own history wins; a thread the reader does not have
 * is answered as a new one.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false", "assistant.model.provider=openai", "assistant.model.retries=0",
        "assistant.model.circuit.minimum-calls=100", ServiceTest.UNLIMITED_ADDRESS_RATE})
class DropInThreadsTest extends ModelServerTest {

    @Test
    void theThreadIdOfTheFinishEventAloneContinuesTheThreadWithItsRecordedTurns() throws Exception {
        stub.then(stub.answer("Run ", "java -jar."), stub.answer("Set camel.server.port."));
        HttpResponse<String> first = ask("acme", ACME_KEY, question("How do I run the service?"));
        String threadId = finishThreadId(first);

        // sent the instant the first answer ended: its turn is already recorded
        HttpResponse<String> second = ask("acme", ACME_KEY, conversation(threadId, null, "And the port?"));
        assertEquals(200, second.statusCode(), second.body());
        assertEquals(threadId, finishThreadId(second));
        assertTrue(second.headers().firstValue("X-Thread-Key").isEmpty(), "no new thread");
        List<JsonNode> seen = stub.messages(1);
        assertEquals("How do I run the service?", message(seen, "user", 0));
        assertEquals("Run java -jar.", message(seen, "assistant", 0));
        assertTrue(message(seen, "user", 1).endsWith("And the port?"), seen.toString());

        ChatThread thread = recordedThread(threadId, 2);
        assertEquals(List.of("How do I run the service?", "And the port?"),
                thread.turns().stream().map(ChatThread.Turn::question).toList());
    }

    @Test
    void theClientsOwnHistoryWins() throws Exception {
        stub.then(stub.answer("Run java -jar."), stub.answer("Port."));
        String threadId = finishThreadId(ask("acme", ACME_KEY, question("How do I run the service?")));

        ask("acme", ACME_KEY, conversation(threadId, null, "What is a tenant?", "And the port?"));
        List<JsonNode> seen = stub.messages(1);
        assertEquals("What is a tenant?", message(seen, "user", 0));
        assertEquals(3, seen.size(), "the system prompt and the client's two questions only");
    }

    @Test
    void anAnswerCutShortIsRecordedAsIncompleteAndTheNextHistorySaysSo() throws Exception {
        stub.then(stub.dropAfter("Start with "), stub.answer("Done."));
        HttpResponse<String> first = ask("acme", ACME_KEY, question("How do I run the service?"));
        String threadId = first.headers().firstValue("X-Thread-Id").orElseThrow();
        assertTrue(first.body().contains("3:"), first.body());
        ChatThread.Turn cut = recordedThread(threadId, 1).turns().get(0);
        assertFalse(cut.complete());
        assertEquals("Start with ", cut.answer());

        assertEquals(200, ask("acme", ACME_KEY, conversation(threadId, null, "And then?")).statusCode());
        String answer = message(stub.messages(1), "assistant", 0);
        assertTrue(answer.startsWith("Start with") && answer.contains("cut short"), answer);
    }

    @Test
    void aThreadTheReaderDoesNotHaveIsAnsweredAsANewThread() throws Exception {
        HttpResponse<String> chosen = ask("acme", ACME_KEY, conversation("thr_chosen_by_the_client", null, "Hi?"));
        assertEquals(200, chosen.statusCode(), chosen.body());
        String threadId = finishThreadId(chosen);
        assertNotEquals("thr_chosen_by_the_client", threadId);
        assertEquals(threadId, chosen.headers().firstValue("X-Thread-Id").orElseThrow());

        HttpResponse<String> otherFp = ask("acme", ACME_KEY, conversation(threadId, null, "Hi?")
                .replace("\"fp-test\"", "\"fp-other\""));
        assertEquals(200, otherFp.statusCode(), otherFp.body());
        assertNotEquals(threadId, finishThreadId(otherFp), "another reader's thread is not continued");
        HttpResponse<String> otherDomain = ask("globex", GLOBEX_KEY, conversation(threadId, null, "Hi?"));
        assertNotEquals(threadId, finishThreadId(otherDomain));
        assertEquals(2, stub.messages(stub.requests.size() - 1).size(), "the system prompt and the question only");

        AssistantEndpointTest.assertProblem(ask("acme", ACME_KEY, conversation(threadId, "tk_wrong", "Hi?")), 404,
                "thread_not_found"); // a key sent is checked
    }

    private static String finishThreadId(HttpResponse<String> response) throws Exception {
        assertEquals(200, response.statusCode(), response.body());
        return parts(response.body()).stream().filter(p -> p.code().equals("d")).findFirst().orElseThrow()
                .value().get("threadId").asText();
    }

    /** The text of the n-th message of this role. */
    private static String message(List<JsonNode> messages, String role, int n) {
        return messages.stream().filter(m -> m.path("role").asText().equals(role)).skip(n).findFirst()
                .orElseThrow(() -> new AssertionError("no " + role + " message " + n + " in " + messages))
                .path("content").asText();
    }
}
