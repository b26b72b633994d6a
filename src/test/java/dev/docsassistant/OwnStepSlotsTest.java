package dev.docsassistant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.BindToRegistry;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The own-steps slots, each shown changing the outcome: the shipped require-team-header example (after validation)
 * on /v1, /v2 and the discovery endpoints alike; a step before the search (the thread known, the search not yet
 * run), before the model (the search done, the model not yet asked), and after the answer (the finished answer, seen
 * once the client has all of it, a failing step unseen by the client).
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false", "assistant.routes-dir=" + OwnStepSlotsTest.DIR})
class OwnStepSlotsTest extends ServiceTest {

    static final String DIR = "target/own-step-slots";
    private static final String TEAM = "X-Docs-Team";

    static {
        try {
            Path routes = emptyFolder(DIR);
            Files.copy(Path.of("k8s/examples/require-team-header.yaml"), routes.resolve("require-team-header.yaml"));
            Files.writeString(routes.resolve("slots.yaml"), refuse("before-search",
                    "${exchangeProperty[assistant.thread]} != null && ${exchangeProperty[assistant.search]} == null")
                    + refuse("before-model",
                    "${exchangeProperty[assistant.search]} != null && ${exchangeProperty[assistant.reply]} == null")
                    + """
                    - route:
                        id: assistant-step-after-answer-gate
                        from:
                          uri: direct:assistant-step-after-answer-gate
                          steps:
                            - filter:
                                simple: "${header.X-Slot} == 'after-answer'"
                                steps:
                                  - process:
                                      ref: answerGate
                                  - throwException:
                                      exceptionType: java.lang.IllegalStateException
                                      message: "a failing after-answer step"
                    """);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A step in the slot that refuses the request when its X-Slot header names the slot and the check holds. */
    private static String refuse(String slot, String check) {
        return """
                - route:
                    id: assistant-step-%1$s-check
                    errorHandler:
                      noErrorHandler: {}
                    from:
                      uri: direct:assistant-step-%1$s-check
                      steps:
                        - filter:
                            simple: "${header.X-Slot} == '%1$s' && %2$s"
                            steps:
                              - throwException:
                                  exceptionType: dev.docsassistant.auth.ForbiddenException
                                  message: "refused %1$s"
                """.formatted(slot, check);
    }

    @BindToRegistry("answerGate")
    private final AnswerGate gate = new AnswerGate();

    @Test
    void theTeamHeaderExampleGuardsV1V2AndDiscovery() throws Exception {
        for (String path : new String[] {"/v1/assistant/acme/message", "/v2/assistant/acme/message"}) {
            String body = path.startsWith("/v2") ? AssistantV2EndpointTest.chat(null, null, "How do I run it?")
                    : question("How do I run it?");
            JsonNode problem = AssistantEndpointTest.assertProblem(send(post(path, ACME_KEY, body)), 403,
                    "forbidden");
            assertEquals("Send the X-Docs-Team header", problem.get("detail").asText(), path);
            HttpResponse<String> allowed = send(post(path, ACME_KEY, body).header(TEAM, "platform"));
            assertEquals(200, allowed.statusCode(), path + ": " + allowed.body());
        }
        String search = "{\"query\":\"run\"}";
        AssistantEndpointTest.assertProblem(send(post("/v1/search/acme", ACME_KEY, search)), 403, "forbidden");
        assertEquals(200, send(post("/v1/search/acme", ACME_KEY, search).header(TEAM, "platform")).statusCode());
    }

    @Test
    void aStepBeforeTheSearchSeesTheThreadAndNoSearchYet() throws Exception {
        assertRefusedIn("before-search");
    }

    @Test
    void aStepBeforeTheModelSeesTheSearchAndNoReplyYet() throws Exception {
        assertRefusedIn("before-model");
    }

    private void assertRefusedIn(String slot) throws Exception {
        for (String version : new String[] {"v1", "v2"}) {
            String body = version.equals("v2") ? AssistantV2EndpointTest.chat(null, null, "How do I run it?")
                    : question("How do I run it?");
            JsonNode problem = AssistantEndpointTest.assertProblem(send(post("/" + version
                    + "/assistant/acme/message", ACME_KEY, body).header(TEAM, "platform").header("X-Slot", slot)),
                    403, "forbidden");
            assertEquals("refused " + slot, problem.get("detail").asText());
        }
    }

    @Test
    void aStepAfterTheAnswerSeesItOnceTheClientHasItAndCannotBreakIt() throws Exception {
        HttpResponse<String> answer = send(post("/v1/assistant/acme/message", ACME_KEY, question("How do I run it?"))
                .header(TEAM, "platform").header("X-Slot", "after-answer"));
        // the client has the whole answer while the step still holds (it fails once released)
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("\nd:{"), answer.body());
        Exchange seen = gate.seen.poll(20, TimeUnit.SECONDS);
        assertNotNull(seen, "the after-answer step ran");
        JsonNode finished = JSON.readTree(seen.getMessage().getBody(String.class));
        assertEquals("acme", finished.get("domain").asText());
        assertEquals("How do I run it?", finished.get("question").asText());
        assertTrue(finished.get("complete").asBoolean());
        StringBuilder streamed = new StringBuilder();
        parts(answer.body()).stream().filter(part -> part.code().equals("0"))
                .forEach(part -> streamed.append(part.value().asText()));
        assertEquals(streamed.toString(), finished.get("answer").asText());
        assertEquals(streamed.toString(), seen.getProperty("assistant.answer.text", String.class));
        gate.release.countDown();
    }

    /** Holds the after-answer step until the test has read the response, and hands the test what it saw. */
    static final class AnswerGate implements Processor {
        final BlockingQueue<Exchange> seen = new LinkedBlockingQueue<>();
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void process(Exchange exchange) throws InterruptedException {
            seen.add(exchange);
            release.await(30, TimeUnit.SECONDS);
        }
    }
}
