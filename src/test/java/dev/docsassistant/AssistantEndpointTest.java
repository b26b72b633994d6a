package dev.docsassistant;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.thread.ChatThread;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        ServiceTest.UNLIMITED_ADDRESS_RATE})
class AssistantEndpointTest extends ServiceTest {

    @Test
    void streamsTheAnswerAsV4PartsInMintlifysOrder() throws Exception {
        HttpResponse<String> response = send(post("/v1/assistant/acme/message", ACME_KEY,
                question("How do I change the port?")).header("X-Secret-Probe", "do-not-echo"));

        assertEquals(200, response.statusCode(), response.body());
        HttpHeadersAssert headers = new HttpHeadersAssert(response);
        headers.is("Content-Type", "text/plain; charset=utf-8");
        headers.is("X-Vercel-AI-Data-Stream", "v1");
        headers.is("Cache-Control", "no-cache");
        headers.is("X-Accel-Buffering", "no");
        headers.is("Link", "</v2/assistant/acme/message>; rel=\"successor-version\"");
        headers.present("Deprecation");
        headers.is("X-RateLimit-Limit", "10000");
        headers.present("X-RateLimit-Remaining");
        headers.present("X-RateLimit-Reset");
        headers.absent("Authorization");
        headers.absent("X-Secret-Probe");

        List<Part> parts = parts(response.body());
        String codes = parts.stream().map(Part::code).collect(Collectors.joining());
        assertTrue(codes.matches("f9aefh+0+e2d"), "parts in order: " + codes);

        String toolCallId = parts.get(1).value().get("toolCallId").asText();
        assertEquals("search", parts.get(1).value().get("toolName").asText());
        assertEquals("How do I change the port?", parts.get(1).value().get("args").get("query").asText());
        assertEquals(toolCallId, parts.get(2).value().get("toolCallId").asText());
        JsonNode firstHit = parts.get(2).value().get("result").get(0);
        assertEquals("/configuration/properties", firstHit.get("path").asText());
        assertEquals("https://acme.example.com/docs/configuration/properties", firstHit.get("url").asText());
        assertEquals("Configuration properties", firstHit.get("metadata").get("title").asText());
        assertTrue(firstHit.get("content").asText().contains("camel.server.port"));
        assertEquals("tool-calls", parts.get(3).value().get("finishReason").asText());
        assertEquals(parts.get(0).value().get("messageId"), parts.get(4).value().get("messageId"),
                "every step names the answer, whose id the client keeps and feedback names");

        JsonNode source = parts.get(5).value();
        assertEquals("url", source.get("sourceType").asText());
        assertEquals("https://acme.example.com/docs/configuration/properties", source.get("url").asText());
        String text = parts.stream().filter(p -> p.code().equals("0")).map(p -> p.value().asText())
                .collect(Collectors.joining());
        assertTrue(text.contains("excerpt-based"), text);
        assertTrue(text.contains("camel.server.port"), text);

        String threadId = response.headers().firstValue("X-Thread-Id").orElseThrow();
        Part finishStep = parts.get(parts.size() - 3);
        assertEquals("stop", finishStep.value().get("finishReason").asText());
        assertEquals(threadId, parts.get(parts.size() - 2).value().get(0).get("threadId").asText());
        assertEquals("finish", parts.get(parts.size() - 2).value().get(0).get("type").asText());
        JsonNode finish = parts.get(parts.size() - 1).value();
        assertEquals(threadId, finish.get("threadId").asText());
        assertEquals("stop", finish.get("finishReason").asText());
        assertTrue(finish.get("usage").get("promptTokens").asLong() > 0);
        assertTrue(finish.get("usage").get("completionTokens").asLong() > 0);
    }

    @Test
    void anAnswerReadyAtOnceGoesOutAsOneWrite() throws Exception {
        byte[] body = question("How do I change the port?").getBytes(StandardCharsets.UTF_8);
        RawHttp.Response response = RawHttp.send(null, uri("/").getPort(), RawHttp.head("POST",
                "/v1/assistant/acme/message", "Authorization: Bearer " + ACME_KEY, "Content-Type: application/json",
                "Content-Length: " + body.length, "Connection: close"), body);

        assertEquals(200, response.status(), response.body());
        assertTrue(parts(response.body()).size() > 10, response.body());
        // the extractive model computes the whole answer before it streams: one chunk, not one per part
        assertEquals(1, response.chunks().size(), response.chunks().toString());
    }

    @Test
    void continuesAThreadWithItsKeyAndRecordsEachTurn() throws Exception {
        HttpResponse<String> first = ask("acme", ACME_KEY, question("How do I run the service?"));
        String threadId = first.headers().firstValue("X-Thread-Id").orElseThrow();
        String threadKey = first.headers().firstValue("X-Thread-Key").orElseThrow();
        assertTrue(threadId.length() >= 22 && threadKey.length() >= 40, threadId + " " + threadKey);

        HttpResponse<String> second = ask("acme", ACME_KEY,
                conversation(threadId, threadKey, "How do I run the service?", "And how do I change the port?"));
        assertEquals(200, second.statusCode(), second.body());
        assertEquals(threadId, second.headers().firstValue("X-Thread-Id").orElseThrow());
        assertTrue(second.headers().firstValue("X-Thread-Key").isEmpty(), "the key is handed out once");

        ChatThread thread = recordedThread(threadId, 2);
        assertEquals(2, thread.turns().size());
        assertEquals("And how do I change the port?", thread.turns().get(1).question());
        assertTrue(thread.turns().get(1).answer().contains("camel.server.port"));
        assertFalse(thread.turns().get(1).sources().isEmpty());
        assertFalse(thread.keyHash().contains(threadKey), "only a hash of the key is kept");
    }

    @Test
    void aThreadIsContinuedOnlyByItsReaderOnItsOwnDomain() throws Exception {
        HttpResponse<String> first = ask("acme", ACME_KEY, question("How do I run the service?"));
        String threadId = first.headers().firstValue("X-Thread-Id").orElseThrow();
        String threadKey = first.headers().firstValue("X-Thread-Key").orElseThrow();

        assertProblem(ask("acme", ACME_KEY, conversation(threadId, "tk_wrong", "Hi?")), 404, "thread_not_found");
        assertEquals(threadId, ask("acme", ACME_KEY, conversation(threadId, null, "Hi?")).headers()
                .firstValue("X-Thread-Id").orElseThrow(), "the threadId alone continues it");
        for (HttpResponse<String> elsewhere : List.of(ask("acme", ACME_KEY, conversation("thr_missing", threadKey, "Hi?")),
                ask("globex", GLOBEX_KEY, conversation(threadId, threadKey, "Hi?")),
                ask("acme", ACME_KEY, conversation(threadId, threadKey, "Hi?").replace("\"fp-test\"", "\"fp-other\"")))) {
            assertEquals(200, elsewhere.statusCode(), elsewhere.body());
            assertNotEquals(threadId, elsewhere.headers().firstValue("X-Thread-Id").orElseThrow(), "a new thread");
            assertTrue(elsewhere.headers().firstValue("X-Thread-Key").isPresent(), "a new thread");
        }
    }

    @Test
    void theExtractiveModelReadsNoAttachmentAndSaysSo() throws Exception {
        ObjectNode body =
                (ObjectNode) JSON.readTree(question("How do I change the port?"));
        ((ObjectNode) body.get("messages").get(0))
                .putArray("experimental_attachments").addObject().put("name", "screen.png")
                .put("contentType", "image/png").put("url", "https://docs.acme.example/screen.png");
        HttpResponse<String> answer = ask("acme", ACME_KEY, body.toString());
        assertEquals(200, answer.statusCode(), answer.body());
        JsonNode notice = parts(answer.body()).stream().filter(p -> p.code().equals("8")).findFirst().orElseThrow()
                .value().get(0);
        assertEquals("attachment_not_read", notice.get("code").asText());
        assertTrue(notice.get("message").asText().contains("screen.png"), notice.toString());
    }

    @Test
    void authenticatesTheBearerKey() throws Exception {
        HttpResponse<String> missing = ask("acme", null, question("Hi?"));
        assertProblem(missing, 401, "unauthorized");
        assertEquals("Bearer", missing.headers().firstValue("WWW-Authenticate").orElseThrow());

        assertProblem(send(post("/v1/assistant/acme/message", null, question("Hi?"))
                .header("Authorization", "Basic " + ACME_KEY)), 401, "unauthorized");
        assertProblem(ask("acme", "sk_not_an_assistant_key", question("Hi?")), 401, "unauthorized");
        HttpResponse<String> unknown = ask("acme", "mint_dsc_unknown", question("Hi?"));
        assertProblem(unknown, 401, "unauthorized");
        assertFalse(unknown.body().contains("mint_dsc_unknown"), "a key is never echoed");

        assertEquals(200, ask("globex", GLOBEX_KEY, question("How do I run the service?")).statusCode(),
                "a key stored as sha256: works");
        assertProblem(ask("globex", ACME_KEY, question("Hi?")), 403, "forbidden");
        assertProblem(ask("nowhere", ACME_KEY, question("Hi?")), 404, "domain_not_found");
    }

    @Test
    void refusesOtherMethodsAndMediaTypes() throws Exception {
        HttpResponse<String> get = send(HttpRequest.newBuilder(uri("/v1/assistant/acme/message"))
                .header("Authorization", "Bearer " + ACME_KEY).GET());
        assertProblem(get, 405, "method_not_allowed");
        assertEquals("OPTIONS, POST", get.headers().firstValue("Allow").orElseThrow());

        HttpResponse<String> text = send(post("/v1/assistant/acme/message", ACME_KEY, question("Hi?"))
                .header("Content-Type", "text/plain"));
        assertProblem(text, 415, "unsupported_media_type");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            fp missing                | {"messages":[{"id":"1","role":"user","content":"q"}]}                                        | fp
            fp not a string           | {"fp":1,"messages":[{"id":"1","role":"user","content":"q"}]}                                 | fp
            messages missing          | {"fp":"f"}                                                                                   | messages
            messages empty            | {"fp":"f","messages":[]}                                                                     | messages
            messages not an array     | {"fp":"f","messages":{}}                                                                     | messages
            message id missing        | {"fp":"f","messages":[{"role":"user","content":"q"}]}                                        | messages[0].id
            role not in the enum      | {"fp":"f","messages":[{"id":"1","role":"robot","content":"q"}]}                              | messages[0].role
            content missing           | {"fp":"f","messages":[{"id":"1","role":"user"}]}                                             | messages[0].content
            part type unknown         | {"fp":"f","messages":[{"id":"1","role":"user","content":"q","parts":[{"type":"image"}]}]}   | messages[0].parts[0].type
            part type missing         | {"fp":"f","messages":[{"id":"1","role":"user","content":"q","parts":[{"text":"q"}]}]}       | messages[0].parts[0].type
            text part without text    | {"fp":"f","messages":[{"id":"1","role":"user","content":"q","parts":[{"type":"text"}]}]}    | messages[0].parts[0].text
            tool state unknown        | {"fp":"f","messages":[{"id":"1","role":"assistant","content":"","parts":[{"type":"tool-invocation","toolInvocation":{"state":"done","toolCallId":"c","toolName":"search"}}]},{"id":"2","role":"user","content":"q"}]} | messages[0].parts[0].toolInvocation.state
            source type unknown       | {"fp":"f","messages":[{"id":"1","role":"assistant","content":"","parts":[{"type":"source","source":{"sourceType":"file","id":"s","url":"u"}}]},{"id":"2","role":"user","content":"q"}]} | messages[0].parts[0].source.sourceType
            last message not the user | {"fp":"f","messages":[{"id":"1","role":"assistant","content":"hello"}]}                      | messages[0]
            page size too small       | {"fp":"f","retrievalPageSize":0,"messages":[{"id":"1","role":"user","content":"q"}]}         | retrievalPageSize
            page size too large       | {"fp":"f","retrievalPageSize":51,"messages":[{"id":"1","role":"user","content":"q"}]}        | retrievalPageSize
            page size not an integer  | {"fp":"f","retrievalPageSize":"5","messages":[{"id":"1","role":"user","content":"q"}]}       | retrievalPageSize
            context type unknown      | {"fp":"f","context":[{"type":"image","value":"v"}],"messages":[{"id":"1","role":"user","content":"q"}]} | context[0].type
            context value missing     | {"fp":"f","context":[{"type":"code"}],"messages":[{"id":"1","role":"user","content":"q"}]}  | context[0].value
            filter not an object      | {"fp":"f","filter":"v2","messages":[{"id":"1","role":"user","content":"q"}]}                 | filter
            """)
    void refusesAnInvalidBodyNamingTheField(String rule, String body, String field) throws Exception {
        HttpResponse<String> response = ask("acme", ACME_KEY, body);
        JsonNode problem = assertProblem(response, 400, "invalid_request");
        assertEquals(field, problem.get("field").asText(), rule + ": " + problem);
        assertTrue(problem.get("detail").asText().startsWith(field), problem.toString());
    }

    @Test
    void explainsHowToFixAMissingMessageId() throws Exception {
        JsonNode problem = assertProblem(ask("acme", ACME_KEY,
                "{\"fp\":\"f\",\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}"), 400, "invalid_request");
        assertEquals("messages[0].id is required: set sendExtraMessageFields: true in useChat",
                problem.get("detail").asText());
    }

    @Test
    void refusesMalformedJsonAndNonObjects() throws Exception {
        assertProblem(ask("acme", ACME_KEY, "{\"fp\":"), 400, "invalid_request");
        assertProblem(ask("acme", ACME_KEY, "[]"), 400, "invalid_request");
        assertProblem(ask("acme", ACME_KEY, ""), 400, "invalid_request");
        assertProblem(ask("acme", ACME_KEY, "{\"fp\":\"f\"} trailing"), 400, "invalid_request");
        String longPath = "{\"fp\":\"f\",\"currentPath\":\"/" + "a".repeat(200)
                + "\",\"messages\":[{\"id\":\"1\",\"role\":\"user\",\"content\":\"q\"}]}";
        assertEquals("currentPath", assertProblem(ask("acme", ACME_KEY, longPath), 400, "invalid_request")
                .get("field").asText());
    }

    @Test
    void ignoresFieldsItDoesNotUse() throws Exception {
        String body = "{\"id\":\"chat\",\"fp\":\"f\",\"extra\":{\"deep\":[1,2]},\"messages\":[{\"id\":\"1\","
                + "\"role\":\"user\",\"content\":\"How do I run it?\",\"revisionId\":\"r\",\"toolInvocations\":[],"
                + "\"annotations\":[{\"a\":1}],\"parts\":[{\"type\":\"text\",\"text\":\"How do I run it?\"}]}]}";
        assertEquals(200, ask("acme", ACME_KEY, body).statusCode());
    }

    @Test
    void answersCorsPreflightsAndExposesItsHeaders() throws Exception {
        HttpHeadersAssert allowed = allowedPreflight("/v1/assistant/acme/message");
        allowed.present("Access-Control-Max-Age");

        HttpResponse<String> answer = send(post("/v1/assistant/acme/message", ACME_KEY, question("How do I run it?"))
                .header("Origin", "https://docs.acme.example"));
        HttpHeadersAssert exposed = new HttpHeadersAssert(answer);
        exposed.is("Access-Control-Allow-Origin", "https://docs.acme.example");
        for (String header : List.of("X-Thread-Id", "X-Thread-Key", "Retry-After", "X-RateLimit-Limit",
                "X-RateLimit-Remaining", "X-RateLimit-Reset")) {
            exposed.contains("Access-Control-Expose-Headers", header);
        }

        HttpResponse<String> refused = send(post("/v1/assistant/acme/message", null, question("Hi?"))
                .header("Origin", "https://docs.acme.example"));
        assertEquals(401, refused.statusCode());
        new HttpHeadersAssert(refused).is("Access-Control-Allow-Origin", "https://docs.acme.example");
    }

    @Test
    void returnsTheRequestIdItWasGivenOrANewOne() throws Exception {
        HttpResponse<String> answer = send(post("/v1/assistant/acme/message", ACME_KEY, question("How do I run it?"))
                .header("X-Request-Id", "trace-42.a:b"));
        assertEquals(200, answer.statusCode());
        new HttpHeadersAssert(answer).is("X-Request-Id", "trace-42.a:b");

        HttpResponse<String> refused = send(post("/v1/assistant/acme/message", null, question("Hi?"))
                .header("X-Request-Id", "<script>alert(1)</script>"));
        String generated = refused.headers().firstValue("X-Request-Id").orElseThrow();
        assertTrue(generated.startsWith("req_") && generated.length() >= 16, "not echoed: " + generated);
        assertEquals(generated, assertProblem(refused, 401, "unauthorized").get("requestId").asText());
    }

    @Test
    void reportsHealthUpOnceIndexed() throws Exception {
        HttpResponse<String> health = send(HttpRequest.newBuilder(managementUri("/observe/health")).GET());
        assertEquals(200, health.statusCode());
        assertEquals("UP", JSON.readTree(health.body()).get("status").asText());
    }

    static JsonNode assertProblem(HttpResponse<String> response, int status, String code) throws Exception {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
        JsonNode problem = JSON.readTree(response.body());
        assertEquals(status, problem.get("status").asInt());
        assertEquals(code, problem.get("code").asText(), problem.toString());
        assertFalse(problem.get("detail").asText().isBlank());
        assertEquals(problem.get("detail"), problem.get("message"));
        new HttpHeadersAssert(response).absent("Authorization");
        return problem;
    }
}
