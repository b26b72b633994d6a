package dev.docsassistant;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code assistant.model.provider=openai} against {@link OpenAiStub}: tokens reach the client as the server sends
 * them, usage is passed on, the prompt carries the documentation, the reader's context and the conversation, the
 * model may search by itself, and every failure of the server ends in a clear answer, never a hang.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.model.provider={{test.model.provider:openai}}", "assistant.model.api-key=sk-test-secret-4711",
        "assistant.model.headers=OpenAI-Organization=org-test, X-Team=docs", "assistant.model.name=stub-model",
        "assistant.model.max-steps=3", "assistant.model.retries=2", "assistant.model.retry-backoff-ms=50",
        "assistant.model.first-token-timeout-ms=1500", "assistant.model.idle-timeout-ms=1000",
        "assistant.model.circuit.minimum-calls=100"})
class OpenAiProviderTest extends ModelServerTest {

    private static final String API_KEY = "sk-test-secret-4711";

    /** Everything logged from before the service starts: its start-up summary included. */
    private final ListAppender<ILoggingEvent> logs = captureLogs();

    @AfterAll
    void detachLogs() {
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(logs);
    }

    private static ListAppender<ILoggingEvent> captureLogs() {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).addAppender(appender);
        return appender;
    }

    @Test
    void theApiKeyIsNeverLogged() throws Exception {
        stub.then(stub.status(401, Map.of()));
        assertEquals(502, ask("acme", ACME_KEY, question("How do I change the port?")).statusCode());
        List<ILoggingEvent> events;
        synchronized (logs) { // the appender appends under its own lock, from the service's threads
            events = List.copyOf(logs.list);
        }
        List<String> lines = events.stream().map(e -> e.getFormattedMessage()
                + (e.getThrowableProxy() == null ? "" : e.getThrowableProxy().getMessage())).toList();
        assertTrue(lines.stream().anyMatch(l -> l.contains("assistant.model.api-key = xxxxxx")),
                "the start-up summary was captured, with the key masked");
        assertTrue(lines.stream().noneMatch(l -> l.contains(API_KEY)), "the key appears in no log line");
    }

    @Test
    void eachTokenReachesTheClientAsTheServerSendsIt() throws Exception {
        CompletableFuture<Void> release = new CompletableFuture<>();
        stub.then(stub.gated("Hello", release, " world", "!"));
        HttpResponse<InputStream> response = http.send(post("/v1/assistant/acme/message", ACME_KEY,
                question("How do I change the port?")).header("X-Request-Id", "req-1").header("Cookie", "a=b").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            List<String> before = new ArrayList<>();
            for (String line = lines.readLine(); line != null && !line.startsWith("0:"); line = lines.readLine()) {
                before.add(line);
            }
            assertEquals(1, stub.tokensSent.get(), "the first token arrived while the server held the rest");
            release.complete(null);
            List<Part> rest = parts(String.join("\n", lines.lines().toList()));
            assertEquals(List.of("0", "0", "e", "2", "d"), rest.stream().map(Part::code).toList());
            assertEquals(" world", rest.get(0).value().asText());
            JsonNode finish = rest.get(4).value();
            assertEquals("stop", finish.get("finishReason").asText());
            assertEquals(OpenAiStub.PROMPT_TOKENS, finish.get("usage").get("promptTokens").asLong(), "usage passed on");
            assertEquals(3, finish.get("usage").get("completionTokens").asLong());
            assertEquals(finish.get("usage"), rest.get(2).value().get("usage"), "the step's usage too");
        }

        OpenAiStub.Request call = stub.requests.get(0);
        assertEquals("Bearer " + API_KEY, call.headers().get("Authorization"), "our key, not the client's");
        assertEquals("org-test", call.headers().get("OpenAI-Organization"));
        assertEquals("docs", call.headers().get("X-Team"));
        for (String clientHeader : List.of("X-Request-Id", "Cookie", "Origin", "CamelHttpUri")) {
            assertNull(call.headers().get(clientHeader), clientHeader + " must not reach the model server");
        }
        JsonNode body = call.body();
        assertEquals("stub-model", body.get("model").asText());
        assertTrue(body.get("stream").asBoolean());
        assertTrue(body.get("stream_options").get("include_usage").asBoolean());
        assertEquals(1024, body.get("max_tokens").asInt());
        assertEquals("search", body.get("tools").get(0).get("function").get("name").asText());
    }

    @Test
    void thePromptCarriesTheDocsTheReadersContextAndTheConversation() throws Exception {
        ObjectNode request = (ObjectNode) JSON.readTree(conversation(null, null,
                "How do threads work?", "How do I change the port?"));
        ArrayNode messages = (ArrayNode) request.get("messages");
        ObjectNode answer = JSON.createObjectNode().put("id", "a1").put("role", "assistant")
                .put("content", "Threads continue with threadId.");
        ArrayNode parts = answer.putArray("parts");
        ObjectNode invocation = parts.addObject().put("type", "tool-invocation").putObject("toolInvocation")
                .put("state", "result").put("toolCallId", "call_1").put("toolName", "search");
        invocation.putObject("args").put("query", "threads");
        invocation.putArray("result").addObject().put("path", "/guides/threads")
                .putObject("metadata").put("title", "Threads guide");
        parts.addObject().put("type", "text").put("text", "Threads continue with threadId.");
        messages.insert(1, answer);
        request.put("currentPath", "/quickstart");
        request.putArray("context").addObject().put("type", "code").put("path", "src/app.properties")
                .put("value", "camel.server.port = 9090");

        HttpResponse<String> response = ask("acme", ACME_KEY, request.toString());
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().contains("0:\"Set \""), response.body());

        List<JsonNode> sent = stub.messages(0);
        assertEquals(List.of("system", "user", "assistant", "user"),
                sent.stream().map(m -> m.get("role").asText()).toList());
        String system = sent.get(0).get("content").asText();
        assertTrue(system.contains("Answer only from the documentation excerpts"), "the bundled system prompt");
        assertTrue(system.contains("[1] Configuration properties (https://acme.example.com/docs/configuration/"),
                system);
        assertTrue(system.contains("camel.server.port"), "the excerpt's text");
        assertFalse(system.contains("\"page\"") || system.contains("app.properties") || system.contains("port = 9090"),
                "the reader's page and attachments are the client's, not the system's: " + system);
        assertEquals("How do threads work?", sent.get(1).get("content").asText());
        String earlier = sent.get(2).get("content").asText();
        assertTrue(earlier.contains("search tool") && earlier.contains("Threads guide")
                && earlier.endsWith("Threads continue with threadId."), "the earlier search is summarised: " + earlier);
        String last = sent.get(3).get("content").asText();
        assertTrue(last.contains("```json\n{\"page\":\"/quickstart\",\"attached\":[{\"type\":\"code\","
                + "\"path\":\"src/app.properties\",\"value\":\"camel.server.port = 9090\"}]}\n```"),
                "the reader's page and code, quoted as JSON data: " + last);
        assertTrue(last.endsWith("```\n\nHow do I change the port?"), "then the question: " + last);
    }

    @Test
    void aDomainMayNameItsOwnModelAndAddToTheSystemPrompt() throws Exception {
        assertEquals(200, ask("acme-intl", ACME_KEY, question("How do I install it?")).statusCode());
        JsonNode body = stub.requests.get(0).body();
        assertEquals("intl-model", body.get("model").asText(), "the tenants file's model, not assistant.model.name");
        String system = body.get("messages").get(0).get("content").asText();
        assertTrue(system.startsWith("You are the documentation assistant of this site.")
                && system.contains("You answer questions about the ACME international documentation."),
                "its prompt file, after the default prompt: " + system);
    }

    @Test
    void theModelMaySearchInAStepOfItsOwn() throws Exception {
        stub.then(stub.searchCall("call_42", "continue a conversation"), stub.answer("Pass ", "threadId."));
        HttpResponse<String> response = ask("acme", ACME_KEY, question("How do I keep talking?"));
        assertEquals(200, response.statusCode(), response.body());
        List<Part> parts = parts(response.body());
        List<String> codes = parts.stream().map(Part::code).toList();
        int call = codes.lastIndexOf("9");
        int cited = (int) codes.subList(call, codes.size()).stream().filter("h"::equals).count();
        assertTrue(cited > 0, "the pages its search gave it are cited: " + codes);
        List<String> searchStep = new ArrayList<>(List.of("9", "a"));
        searchStep.addAll(Collections.nCopies(cited, "h"));
        searchStep.addAll(List.of("e", "f", "0", "0", "e", "2", "d"));
        assertEquals(searchStep, codes.subList(call, codes.size()), codes.toString());
        assertEquals("call_42", parts.get(call).value().get("toolCallId").asText());
        assertEquals("continue a conversation", parts.get(call).value().get("args").get("query").asText());
        assertEquals("call_42", parts.get(call + 1).value().get("toolCallId").asText());
        assertFalse(parts.get(call + 1).value().get("result").isEmpty(), "the search found pages");
        assertEquals("tool-calls", parts.get(call + 2 + cited).value().get("finishReason").asText());
        assertEquals(9 + 2, parts.get(codes.size() - 1).value().get("usage").get("completionTokens").asLong(),
                "usage summed over both steps");

        List<JsonNode> second = stub.messages(1);
        JsonNode assistant = second.get(second.size() - 2);
        assertEquals("call_42", assistant.get("tool_calls").get(0).get("id").asText());
        assertEquals("{\"query\":\"continue a conversation\"}",
                assistant.get("tool_calls").get(0).get("function").get("arguments").asText());
        JsonNode tool = second.get(second.size() - 1);
        assertEquals("tool", tool.get("role").asText());
        assertTrue(tool.get("content").asText().startsWith("[1] "), tool.toString());
    }

    /** The paths the model's own search found, for a question from a reader in these groups. */
    private List<String> modelSearchFound(String... groups) throws Exception {
        stub.then(stub.searchCall("call_7", "rotate the SAML signing keys"), stub.answer("Done."));
        ObjectNode body = (ObjectNode) JSON.readTree(question("Who can change the login certificate?"));
        ArrayNode named = body.putObject("filter").putArray("groups");
        List.of(groups).forEach(named::add);
        HttpResponse<String> response = ask("acme-groups", ACME_KEY, body.toString());
        assertEquals(200, response.statusCode(), response.body());
        List<Part> parts = parts(response.body());
        int call = parts.stream().map(Part::code).toList().lastIndexOf("9");
        assertEquals("call_7", parts.get(call + 1).value().get("toolCallId").asText());
        return parts.get(call + 1).value().get("result").findValuesAsText("path");
    }

    @Test
    void theModelsOwnSearchKeepsTheReadersGroups() throws Exception {
        List<String> publicOnly = modelSearchFound();
        assertTrue(publicOnly.contains("/sso") && !publicOnly.contains("/admin/signing-keys"), publicOnly.toString());
        assertEquals("/admin/signing-keys", modelSearchFound("admin").get(0));
    }

    @Test
    void serverErrorsAreRetriedBeforeTheAnswerStarts() throws Exception {
        stub.then(stub.status(500, Map.of()), stub.status(503, Map.of()));
        HttpResponse<String> response = ask("acme", ACME_KEY, question("How do I change the port?"));
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().contains("d:{"), response.body());
        assertEquals(3, stub.requests.size());
    }

    @Test
    void persistentServerErrorsAnswer502() throws Exception {
        stub.then(stub.status(500, Map.of()), stub.status(500, Map.of()), stub.status(502, Map.of()));
        HttpResponse<String> response = ask("acme", ACME_KEY, question("How do I change the port?"));
        assertEquals(502, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("model_failed", JSON.readTree(response.body()).get("code").asText());
        assertEquals(3, stub.requests.size(), "one call and two retries");
        assertFalse(response.body().contains(API_KEY), response.body());
    }

    @Test
    void aRequestTheServerRefusesIsNotRetried() throws Exception {
        stub.then(stub.status(400, Map.of()));
        HttpResponse<String> response = ask("acme", ACME_KEY, question("How do I change the port?"));
        assertEquals(502, response.statusCode(), response.body());
        assertEquals(1, stub.requests.size());
    }

    @Test
    void tooManyRequestsIsRetriedAfterRetryAfter() throws Exception {
        stub.then(stub.status(429, Map.of("Retry-After", "1")));
        HttpResponse<String> response = ask("acme", ACME_KEY, question("How do I change the port?"));
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(2, stub.requests.size());
        long waited = stub.requests.get(1).arrivedNanos() - stub.requests.get(0).arrivedNanos();
        assertTrue(waited >= TimeUnit.MILLISECONDS.toNanos(950), "waited as asked, not the 50 ms backoff: " + waited);
    }

    @Test
    void aStreamDroppedBeforeTheFirstTokenIsRetried() throws Exception {
        stub.then(stub.dropAfter());
        HttpResponse<String> response = ask("acme", ACME_KEY, question("How do I change the port?"));
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().contains("d:{"), response.body());
        assertEquals(2, stub.requests.size());
    }

    @Test
    void aStreamDroppedMidAnswerEndsWithAnErrorPart() throws Exception {
        stub.then(stub.dropAfter("Hello", " there"));
        HttpResponse<String> response = ask("acme", ACME_KEY, question("How do I change the port?"));
        assertEquals(200, response.statusCode());
        List<Part> parts = parts(response.body());
        assertEquals("3", parts.get(parts.size() - 1).code(), response.body());
        assertEquals(" there", parts.get(parts.size() - 2).value().asText());
        assertEquals(1, stub.requests.size(), "text already sent is never retried");
    }

    @Test
    void anErrorEventBeforeTheFirstTokenIsRetriedAndAfterItEndsTheStream() throws Exception {
        stub.then(stub.errorAfter());
        HttpResponse<String> retried = ask("acme", ACME_KEY, question("How do I change the port?"));
        assertEquals(200, retried.statusCode(), retried.body());
        assertTrue(retried.body().contains("d:{"), retried.body());
        assertEquals(2, stub.requests.size());

        stub.then(stub.errorAfter("Hello"));
        List<Part> parts = parts(ask("acme", ACME_KEY, question("How do I change the port?")).body());
        assertEquals("Hello", parts.get(parts.size() - 2).value().asText());
        assertEquals("3", parts.get(parts.size() - 1).code());
    }

    @Test
    void aServerSilentBeforeTheFirstTokenAnswers504() throws Exception {
        stub.then(stub.hangAfter());
        long start = System.nanoTime();
        HttpResponse<String> response = ask("acme", ACME_KEY, question("How do I change the port?"));
        assertEquals(504, response.statusCode(), response.body());
        assertEquals("model_timeout", JSON.readTree(response.body()).get("code").asText());
        assertEquals(1, stub.requests.size(), "a silent server is not asked again");
        assertTrue(stub.abandoned.get(5, TimeUnit.SECONDS) > start, "and its connection is dropped");
    }

    @Test
    void aServerThatNeverSendsItsHeadersAnswers504AtTheFirstTokenTimeout() throws Exception {
        stub.then(stub.silent()); // reads have no socket timeout: only the first-token deadline ends this wait
        long start = System.nanoTime();
        HttpResponse<String> response = ask("acme", ACME_KEY, question("How do I change the port?"));
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertEquals(504, response.statusCode(), response.body());
        assertEquals("model_timeout", JSON.readTree(response.body()).get("code").asText());
        assertTrue(millis >= 1500, "not before the first-token timeout (1.5 s here): " + millis + " ms");
        assertEquals(1, stub.requests.size(), "a silent server is not asked again");
        assertTrue(stub.abandoned.get(5, TimeUnit.SECONDS) > start, "and its connection is dropped");
    }

    @Test
    void aServerSilentBetweenTokensEndsTheStreamWithAnErrorPart() throws Exception {
        stub.then(stub.hangAfter("Hello"));
        HttpResponse<String> response = ask("acme", ACME_KEY, question("How do I change the port?"));
        assertEquals(200, response.statusCode());
        List<Part> parts = parts(response.body());
        assertEquals("0", parts.get(parts.size() - 2).code(), response.body());
        assertEquals("3", parts.get(parts.size() - 1).code(), response.body());
        stub.abandoned.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aClientThatLeavesCancelsTheUpstreamCall() throws Exception {
        stub.then(stub.endless());
        HttpResponse<InputStream> response = http.send(post("/v1/assistant/acme/message", ACME_KEY,
                question("How do I change the port?")).build(), HttpResponse.BodyHandlers.ofInputStream());
        long left;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); !line.startsWith("0:"); line = lines.readLine()) {
                assertTrue(line.length() > 0);
            }
            left = System.nanoTime();
        }
        long cancelled = stub.abandoned.get(5, TimeUnit.SECONDS);
        System.out.printf("Upstream connection closed %d ms after the client left%n",
                Duration.ofNanos(cancelled - left).toMillis());
        int sent = stub.tokensSent.get();
        Thread.sleep(200);
        assertEquals(sent, stub.tokensSent.get(), "no tokens are produced for nobody");
        assertEquals(200, ask("acme", ACME_KEY, question("How do I run it?")).statusCode(), "still serving");
    }

    @Test
    void aClientThatLeavesBeforeTheServerAnswersCancelsTheUpstreamCall() throws Exception {
        stub.then(stub.silent());
        byte[] body = question("How do I change the port?").getBytes(StandardCharsets.UTF_8);
        long left;
        try (Socket client = new Socket(uri("/").getHost(), uri("/").getPort())) { // a raw socket, to leave at will
            client.getOutputStream().write(("POST /v1/assistant/acme/message HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer " + ACME_KEY + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            client.getOutputStream().write(body);
            client.getOutputStream().flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (stub.requests.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(1, stub.requests.size(), "the model server has the request and sends nothing back");
            left = System.nanoTime();
        }
        long cancelled = stub.abandoned.get(5, TimeUnit.SECONDS);
        long millis = Duration.ofNanos(cancelled - left).toMillis();
        System.out.printf("Upstream connection closed %d ms after the client left, before any response header%n",
                millis);
        // Without the abort, only the read timeout (first-token timeout + 1 s = 2.5 s here) would close it.
        assertTrue(millis < 2000, "the upstream call was aborted, not timed out: " + millis + " ms");
        assertTrue(accessLogged("\"status\":499", "\"code\":\"client_closed_request\""),
                "logged as the client's leaving, not as a failure of the model (502)");
        assertEquals(200, ask("acme", ACME_KEY, question("How do I run it?")).statusCode(), "still serving");
    }

    /** Whether a request-log line holding every one of {@code parts} appears within 5 s. */
    private boolean accessLogged(String... parts) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        do {
            List<ILoggingEvent> events;
            synchronized (logs) {
                events = List.copyOf(logs.list);
            }
            if (events.stream().filter(e -> e.getLoggerName().equals("dev.docsassistant.access"))
                    .map(ILoggingEvent::getFormattedMessage)
                    .anyMatch(line -> Arrays.stream(parts).allMatch(line::contains))) {
                return true;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        return false;
    }
}
