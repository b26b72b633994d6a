package dev.docsassistant;

import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.thread.ChatThread;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static dev.docsassistant.AssistantEndpointTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * POST /v1/assistant/{domain}/feedback with the public key: a reader rates an answer of their own thread, by the
 * message id the stream gave it; one rating an answer; nobody else's thread, a bounded comment, the same errors and
 * CORS as the message endpoint.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false", "assistant.feedback.max-comment-chars=50",
        ServiceTest.UNLIMITED_ADDRESS_RATE})
class FeedbackTest extends ServiceTest {

    @Test
    void aReaderRatesAnAnswerOfTheirThreadOnceByItsMessageId() throws Exception {
        HttpResponse<String> answer = ask("acme", ACME_KEY, question("How do I change the port?"));
        String threadId = answer.headers().firstValue("X-Thread-Id").orElseThrow();
        String messageId = messageId(answer);

        HttpResponse<String> rated = feedback("acme", ACME_KEY, body("fp-test", threadId, messageId, "down")
                .put("comment", "  Missing the env var.  "));
        assertEquals(200, rated.statusCode(), rated.body());
        assertEquals("down", JSON.readTree(rated.body()).get("rating").asText());
        ChatThread.Feedback feedback = recordedThread(threadId, 1).turns().get(0).feedback();
        assertEquals("down", feedback.rating());
        assertEquals("Missing the env var.", feedback.comment());

        assertEquals(200, feedback("acme", ACME_KEY, body("fp-test", threadId, messageId, "up")).statusCode());
        ChatThread.Feedback replaced = recordedThread(threadId, 1).turns().get(0).feedback();
        assertEquals("up", replaced.rating(), "one rating an answer: the newest");
        assertNull(replaced.comment());
    }

    @Test
    void noOneRatesAnotherReadersAnswer() throws Exception {
        HttpResponse<String> answer = ask("acme", ACME_KEY, question("How do I change the port?"));
        String threadId = answer.headers().firstValue("X-Thread-Id").orElseThrow();
        String messageId = messageId(answer);

        assertProblem(feedback("acme", ACME_KEY, body("fp-other", threadId, messageId, "down")), 404,
                "thread_not_found");
        assertProblem(feedback("globex", GLOBEX_KEY, body("fp-test", threadId, messageId, "down")), 404,
                "thread_not_found");
        assertProblem(feedback("acme", ACME_KEY, body("fp-test", "thr_unknown", messageId, "down")), 404,
                "thread_not_found");
        assertProblem(feedback("acme", ACME_KEY, body("fp-test", threadId, "msg-not-this-one", "down")), 404,
                "message_not_found");
        assertProblem(feedback("acme", null, body("fp-test", threadId, messageId, "down")), 401, "unauthorized");
        assertNull(recordedThread(threadId, 1).turns().get(0).feedback());
    }

    @Test
    void aBadBodyIsRefusedNamingTheField() throws Exception {
        HttpResponse<String> answer = ask("acme", ACME_KEY, question("How do I change the port?"));
        String threadId = answer.headers().firstValue("X-Thread-Id").orElseThrow();
        String messageId = messageId(answer);

        assertEquals("comment", assertProblem(feedback("acme", ACME_KEY, body("fp-test", threadId, messageId, "up")
                .put("comment", "x".repeat(51))), 400, "invalid_request").get("field").asText());
        assertProblem(feedback("acme", ACME_KEY, body("fp-test", threadId, messageId, "meh")), 400,
                "invalid_request");
        assertEquals("messageId", assertProblem(feedback("acme", ACME_KEY, body("fp-test", threadId, null, "up")),
                400, "invalid_request").get("field").asText());
    }

    @Test
    void corsAsForTheMessageEndpoint() throws Exception {
        allowedPreflight("/v1/assistant/acme/feedback");
        HttpResponse<String> answer = ask("acme", ACME_KEY, question("How do I change the port?"));
        HttpResponse<String> rated = send(post("/v1/assistant/acme/feedback", ACME_KEY,
                body("fp-test", answer.headers().firstValue("X-Thread-Id").orElseThrow(), messageId(answer), "up")
                        .toString()).header("Origin", "https://docs.acme.example"));
        assertEquals(200, rated.statusCode(), rated.body());
        new HttpHeadersAssert(rated).is("Access-Control-Allow-Origin", "https://docs.acme.example");
    }

    /** The id the stream gave the answer: its f: part's (v1), which useChat keeps as the message id. */
    static String messageId(HttpResponse<String> answer) throws Exception {
        return parts(answer.body()).stream().filter(p -> p.code().equals("f")).reduce((a, b) -> b).orElseThrow()
                .value().get("messageId").asText();
    }

    static ObjectNode body(String fp, String threadId, String messageId, String rating) {
        return JSON.createObjectNode().put("fp", fp).put("threadId", threadId).put("messageId", messageId)
                .put("rating", rating);
    }

    private HttpResponse<String> feedback(String domain, String key, ObjectNode body) throws Exception {
        return send(post("/v1/assistant/" + domain + "/feedback", key, body.toString()));
    }
}
