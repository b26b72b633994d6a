package dev.docsassistant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped Kamelets, each through its example in k8s/examples dropped into {@code assistant.routes-dir} (pointed
 * at this test's tenants, model server and webhook), against the running service. require-header-action: see
 * {@link OwnStepSlotsTest}.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false", "assistant.model.api-key=sk-test", "assistant.model.retries=0",
        "assistant.routes-dir=" + KameletsTest.DIR})
class KameletsTest extends ServiceTest {

    static final String DIR = "target/kamelets";
    private static final Path EXAMPLES = Path.of("k8s/examples");
    private static final OpenAiStub MODEL = OpenAiStub.startAsModelServer();
    private static final BlockingQueue<String> WEBHOOK = new LinkedBlockingQueue<>();
    private static final HttpServer HOOKS = webhook();

    static {
        try {
            Path routes = emptyFolder(DIR);
            copy("refuse-off-topic.yaml", "", "");
            copy("model-by-domain.yaml", "domain=internal", "domain=acme"); // acme to openai: the stub
            copy("version-note.yaml", "", "");
            copy("answers-webhook.yaml", "https://hooks.example.com/docs-assistant",
                    "http://127.0.0.1:" + HOOKS.getAddress().getPort() + "/hook");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copy(String example, String from, String to) throws IOException {
        Files.writeString(Path.of(DIR, example), Files.readString(EXAMPLES.resolve(example)).replace(from, to));
    }

    private static HttpServer webhook() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/hook", exchange -> {
                WEBHOOK.add(exchange.getRequestHeaders().getFirst("Content-Type") + " "
                        + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeEach
    void reset() {
        MODEL.reset();
        WEBHOOK.clear();
    }

    @AfterAll
    void stop() throws Exception {
        OpenAiStub.stopAsModelServer(MODEL);
        HOOKS.stop(0);
    }

    @Test
    void refuseQuestionActionAnswersAMatchingQuestionKindly() throws Exception {
        JsonNode problem = AssistantEndpointTest.assertProblem(
                ask("acme", ACME_KEY, question("What is the CEO's Salary?")), 403, "forbidden");
        assertEquals("I can only help with the documentation.", problem.get("detail").asText());
        assertTrue(MODEL.requests.isEmpty(), "refused before the model");
        assertEquals(200, ask("acme", ACME_KEY, question("How do I run it?")).statusCode());
    }

    @Test
    void modelByDomainActionSendsOneDomainToAnotherProvider() throws Exception {
        HttpResponse<String> acme = ask("acme", ACME_KEY, question("How do I run it?"));
        assertEquals(200, acme.statusCode(), acme.body());
        assertTrue(acme.body().contains("0:\"Set \""), "answered by the openai stub: " + acme.body());
        assertEquals(1, MODEL.requests.size());

        HttpResponse<String> globex = ask("globex", GLOBEX_KEY, question("How do I run it?"));
        assertEquals(200, globex.statusCode(), globex.body());
        assertEquals(1, MODEL.requests.size(), "globex keeps the default (extractive) model");
    }

    @Test
    void promptNoteActionAddsItsNoteToTheInstructions() throws Exception {
        assertEquals(200, ask("acme", ACME_KEY, question("How do I run it?")).statusCode());
        String system = MODEL.requests.get(0).body().get("messages").get(0).get("content").asText();
        assertTrue(system.contains("\n\nVersion 3 is end-of-life: point readers to version 4."), system);
    }

    @Test
    void webhookActionPostsTheFinishedAnswer() throws Exception {
        String asked = "How do I run it, and where does the answer go?"; // this test's own: others ask theirs
        assertEquals(200, ask("acme", ACME_KEY, question(asked)).statusCode());
        // the webhook is the class's: an answer another test asked may be posted after that test ended
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        JsonNode answer;
        do {
            String posted = WEBHOOK.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertNotNull(posted, "the webhook was called");
            assertTrue(posted.startsWith("application/json "), posted);
            answer = JSON.readTree(posted.substring(posted.indexOf(' ') + 1));
        } while (!asked.equals(answer.path("question").asText()));
        assertEquals("acme", answer.get("domain").asText());
        assertEquals(OpenAiStub.DEFAULT_ANSWER, answer.get("answer").asText());
        assertTrue(answer.get("complete").asBoolean());
    }
}
