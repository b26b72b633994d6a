package dev.docsassistant;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.thread.ChatThread;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static dev.docsassistant.AssistantEndpointTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** POST /v2/assistant/{domain}/message: the v1 pipeline with v5 UI messages in and the UI message stream out. */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        ServiceTest.UNLIMITED_ADDRESS_RATE})
class AssistantV2EndpointTest extends ServiceTest {

    @Test
    void streamsTheAnswerAsAUiMessageStream() throws Exception {
        HttpResponse<String> response = send(post("/v2/assistant/acme/message", ACME_KEY,
                chat(null, null, "How do I change the port?")).header("X-Secret-Probe", "do-not-echo"));

        assertEquals(200, response.statusCode(), response.body());
        HttpHeadersAssert headers = new HttpHeadersAssert(response);
        headers.is("Content-Type", "text/event-stream");
        headers.is("Cache-Control", "no-cache");
        headers.is("Connection", "keep-alive");
        headers.is("x-vercel-ai-ui-message-stream", "v1");
        headers.is("X-Accel-Buffering", "no");
        headers.present("X-Thread-Key");
        headers.present("X-RateLimit-Remaining");
        headers.absent("Deprecation");
        headers.absent("X-Vercel-AI-Data-Stream");
        headers.absent("Authorization");
        headers.absent("X-Secret-Probe");
        String threadId = response.headers().firstValue("X-Thread-Id").orElseThrow();

        assertTrue(response.body().endsWith("\n\ndata: [DONE]\n\n"), response.body());
        List<JsonNode> chunks = chunks(response.body());
        String types = chunks.stream().map(c -> c.get("type").asText()).collect(Collectors.joining(","));
        assertTrue(types.matches("start,start-step,tool-input-available,tool-output-available,finish-step,"
                + "start-step,(source-url,)+text-start,(text-delta,)+text-end,finish-step,finish"), types);

        JsonNode start = chunks.get(0);
        assertEquals(threadId, start.get("messageMetadata").get("threadId").asText());
        assertEquals(List.of("type", "messageId", "messageMetadata"), fields(start), "no top-level threadId");
        JsonNode call = chunks.get(2);
        assertEquals("search", call.get("toolName").asText());
        assertEquals("How do I change the port?", call.get("input").get("query").asText());
        JsonNode result = chunks.get(3);
        assertEquals(call.get("toolCallId"), result.get("toolCallId"));
        JsonNode firstHit = result.get("output").get(0);
        assertEquals("/configuration/properties", firstHit.get("path").asText());
        assertEquals("Configuration properties", firstHit.get("metadata").get("title").asText());
        JsonNode source = chunks.get(6);
        assertEquals("https://acme.example.com/docs/configuration/properties", source.get("url").asText());
        assertEquals(List.of("type", "sourceId", "url", "title"), fields(source));

        List<JsonNode> text = chunks.stream().filter(c -> c.get("type").asText().startsWith("text-")).toList();
        assertTrue(text.stream().allMatch(c -> c.get("id").equals(text.get(0).get("id"))), "one text id");
        String answer = text.stream().filter(c -> c.has("delta")).map(c -> c.get("delta").asText())
                .collect(Collectors.joining());
        assertTrue(answer.contains("camel.server.port"), answer);

        JsonNode finish = chunks.get(chunks.size() - 1);
        assertEquals(List.of("type", "messageMetadata"), fields(finish), "no finishReason, no usage");
        assertEquals(threadId, finish.get("messageMetadata").get("threadId").asText());
    }

    @Test
    void acceptsEveryPartAV5OrV6ClientEchoesBack() throws Exception {
        ObjectNode body = JSON.createObjectNode().put("id", "chat-1").put("trigger", "submit-message")
                .put("fp", "fp-test");
        body.putObject("filter").put("version", "v2").putArray("groups").add("admins");
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("id", "s").put("role", "system").putArray("parts").addObject()
                .put("type", "text").put("text", "Be brief.");
        ObjectNode asked = messages.addObject().put("id", "u1").put("role", "user");
        asked.putObject("metadata").put("sentAt", 1);
        ArrayNode askedParts = asked.putArray("parts");
        askedParts.addObject().put("type", "file").put("mediaType", "image/png").put("filename", "a.png")
                .put("url", "data:image/png;base64,AAAA");
        askedParts.addObject().put("type", "text").put("text", "How do I run the service?");
        ObjectNode answered = messages.addObject().put("id", "a1").put("role", "assistant");
        answered.putObject("metadata").put("threadId", "thr_from_an_earlier_answer");
        ArrayNode parts = answered.putArray("parts");
        parts.addObject().put("type", "step-start");
        ObjectNode tool = parts.addObject().put("type", "tool-search").put("toolCallId", "call_1")
                .put("state", "output-available");
        tool.putObject("input").put("query", "run");
        tool.putArray("output").addObject().put("path", "/quickstart");
        parts.addObject().put("type", "dynamic-tool").put("toolName", "mcp_lookup").put("toolCallId", "call_2")
                .put("state", "output-error").put("errorText", "down").putObject("input");
        parts.addObject().put("type", "tool-weather").put("toolCallId", "call_3").put("state", "input-streaming");
        parts.addObject().put("type", "step-start");
        parts.addObject().put("type", "reasoning").put("text", "Looking it up.").put("state", "done")
                .putObject("providerMetadata").putObject("openai").put("itemId", "x");
        parts.addObject().put("type", "source-url").put("sourceId", "src-1").put("url", "https://e.com/q")
                .put("title", "Quickstart");
        parts.addObject().put("type", "source-document").put("sourceId", "d").put("mediaType", "application/pdf")
                .put("title", "Guide");
        parts.addObject().put("type", "data-notice").put("id", "n1").putObject("data").put("code", "fallback");
        parts.addObject().put("type", "text").put("text", "Run the jar.").put("state", "done");
        messages.addObject().put("id", "u2").put("role", "user").putArray("parts").addObject()
                .put("type", "text").put("text", "And how do I change the port?");

        HttpResponse<String> response = send(post("/v2/assistant/acme/message", ACME_KEY, body.toString()));
        assertEquals(200, response.statusCode(), response.body());
        ChatThread thread = recordedThread(response.headers().firstValue("X-Thread-Id").orElseThrow(), 1);
        assertEquals("And how do I change the port?", thread.turns().get(0).question());
        assertTrue(thread.turns().get(0).answer().contains("camel.server.port"));
    }

    /** The search tool's output for a question to {@code acme-groups} from a reader in these groups. */
    private List<String> searchedFor(String question, String... groups) throws Exception {
        ObjectNode body = (ObjectNode) JSON.readTree(chat(null, null, question));
        ArrayNode named = body.putObject("filter").putArray("groups");
        List.of(groups).forEach(named::add);
        HttpResponse<String> response = send(post("/v2/assistant/acme-groups/message", ACME_KEY, body.toString()));
        assertEquals(200, response.statusCode(), response.body());
        return chunks(response.body()).stream().filter(c -> c.get("type").asText().equals("tool-output-available"))
                .findFirst().orElseThrow().get("output").findValuesAsText("path");
    }

    @Test
    void findsARestrictedPageOnlyForAReaderInOneOfItsGroups() throws Exception {
        String question = "How do I rotate the SAML signing keys?";
        assertEquals("/admin/signing-keys", searchedFor(question, "admin").get(0));
        List<String> publicOnly = searchedFor(question);
        assertTrue(publicOnly.contains("/sso") && !publicOnly.contains("/admin/signing-keys"), publicOnly.toString());

        String pricing = "Is there a discount for resellers?";
        assertEquals("/partners/pricing", searchedFor(pricing, "admin", "resellers").get(0));
        assertFalse(searchedFor(pricing, "admin, resellers").contains("/partners/pricing"),
                "one group named 'admin, resellers' is not two groups, in the search cache either");
    }

    @Test
    void continuesAThreadNamedInTheBody() throws Exception {
        HttpResponse<String> first = send(post("/v2/assistant/acme/message", ACME_KEY,
                chat(null, null, "How do I run the service?")));
        String threadId = first.headers().firstValue("X-Thread-Id").orElseThrow();
        String threadKey = first.headers().firstValue("X-Thread-Key").orElseThrow();

        HttpResponse<String> second = send(post("/v2/assistant/acme/message", ACME_KEY,
                chat(threadId, threadKey, "How do I run the service?", "And how do I change the port?")));
        assertEquals(200, second.statusCode(), second.body());
        assertEquals(threadId, second.headers().firstValue("X-Thread-Id").orElseThrow());
        assertTrue(second.headers().firstValue("X-Thread-Key").isEmpty(), "the key is handed out once");
        assertEquals(threadId, chunks(second.body()).get(0).get("messageMetadata").get("threadId").asText());

        assertProblem(send(post("/v2/assistant/acme/message", ACME_KEY, chat(threadId, "tk_wrong", "Hi?"))),
                404, "thread_not_found");
        HttpResponse<String> elsewhere = send(post("/v2/assistant/globex/message", GLOBEX_KEY,
                chat(threadId, threadKey, "Hi?")));
        assertEquals(200, elsewhere.statusCode(), elsewhere.body());
        assertNotEquals(threadId, elsewhere.headers().firstValue("X-Thread-Id").orElseThrow(),
                "another domain's thread is answered as a new one");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            fp missing                | {"messages":[{"id":"1","role":"user","parts":[{"type":"text","text":"q"}]}]}                       | fp
            messages missing          | {"fp":"f"}                                                                                         | messages
            messages empty            | {"fp":"f","messages":[]}                                                                           | messages
            message id missing        | {"fp":"f","messages":[{"role":"user","parts":[{"type":"text","text":"q"}]}]}                       | messages[0].id
            role data is v4 only      | {"fp":"f","messages":[{"id":"1","role":"data","parts":[{"type":"text","text":"q"}]}]}              | messages[0].role
            role not in the enum      | {"fp":"f","messages":[{"id":"1","role":"robot","parts":[{"type":"text","text":"q"}]}]}             | messages[0].role
            v4 content, no parts      | {"fp":"f","messages":[{"id":"1","role":"user","content":"q"}]}                                     | messages[0].parts
            part type unknown         | {"fp":"f","messages":[{"id":"1","role":"user","parts":[{"type":"image"}]}]}                        | messages[0].parts[0].type
            v4 source part            | {"fp":"f","messages":[{"id":"1","role":"user","parts":[{"type":"source","source":{}}]}]}          | messages[0].parts[0].type
            tool name missing         | {"fp":"f","messages":[{"id":"1","role":"user","parts":[{"type":"tool-","toolCallId":"c"}]}]}       | messages[0].parts[0].type
            part type missing         | {"fp":"f","messages":[{"id":"1","role":"user","parts":[{"text":"q"}]}]}                            | messages[0].parts[0].type
            text part without text    | {"fp":"f","messages":[{"id":"1","role":"user","parts":[{"type":"text"}]}]}                         | messages[0].parts[0].text
            text not a string         | {"fp":"f","messages":[{"id":"1","role":"user","parts":[{"type":"text","text":1}]}]}                | messages[0].parts[0].text
            file without url          | {"fp":"f","messages":[{"id":"1","role":"user","parts":[{"type":"file","mediaType":"image/png"}]}]} | messages[0].parts[0].url
            tool call id missing      | {"fp":"f","messages":[{"id":"1","role":"user","parts":[{"type":"tool-search","state":"input-available"}]}]} | messages[0].parts[0].toolCallId
            dynamic tool unnamed      | {"fp":"f","messages":[{"id":"1","role":"user","parts":[{"type":"dynamic-tool","toolCallId":"c"}]}]} | messages[0].parts[0].toolName
            trigger unknown           | {"fp":"f","trigger":"send","messages":[{"id":"1","role":"user","parts":[{"type":"text","text":"q"}]}]} | trigger
            groups not an array       | {"fp":"f","filter":{"groups":"admins"},"messages":[{"id":"1","role":"user","parts":[{"type":"text","text":"q"}]}]} | filter.groups
            group not a string        | {"fp":"f","filter":{"groups":[1]},"messages":[{"id":"1","role":"user","parts":[{"type":"text","text":"q"}]}]} | filter.groups[0]
            group blank               | {"fp":"f","filter":{"groups":["admins",""]},"messages":[{"id":"1","role":"user","parts":[{"type":"text","text":"q"}]}]} | filter.groups[1]
            last message not the user | {"fp":"f","messages":[{"id":"1","role":"assistant","parts":[{"type":"text","text":"hello"}]}]}     | messages[0]
            question without text     | {"fp":"f","messages":[{"id":"1","role":"user","parts":[{"type":"step-start"}]}]}                   | messages[0]
            page size too large       | {"fp":"f","retrievalPageSize":51,"messages":[{"id":"1","role":"user","parts":[{"type":"text","text":"q"}]}]} | retrievalPageSize
            """)
    void refusesAnInvalidBodyNamingTheField(String rule, String body, String field) throws Exception {
        JsonNode problem = assertProblem(send(post("/v2/assistant/acme/message", ACME_KEY, body)), 400,
                "invalid_request");
        assertEquals(field, problem.get("field").asText(), rule + ": " + problem);
        assertTrue(problem.get("detail").asText().startsWith(field), problem.toString());
    }

    @Test
    void refusesLikeV1BeforeTheStreamStarts() throws Exception {
        assertProblem(send(post("/v2/assistant/acme/message", null, chat(null, null, "Hi?"))), 401, "unauthorized");
        assertProblem(send(post("/v2/assistant/globex/message", ACME_KEY, chat(null, null, "Hi?"))), 403,
                "forbidden");
        assertProblem(send(post("/v2/assistant/acme/message", ACME_KEY, "{\"fp\":")), 400, "invalid_request");
        assertProblem(send(post("/v2/assistant/acme/message", ACME_KEY, chat(null, null, "Hi?"))
                .header("Content-Type", "text/plain")), 415, "unsupported_media_type");
        assertEquals(405, send(HttpRequest.newBuilder(uri("/v2/assistant/acme/message"))
                .header("Authorization", "Bearer " + ACME_KEY).GET()).statusCode());
    }

    /** What a browser on the docs site's origin needs to call /v2 and read the thread headers. */
    @Test
    void letsABrowserOnAnotherOriginReadTheThreadHeaders() throws Exception {
        allowedPreflight("/v2/assistant/acme/message");

        HttpResponse<String> answer = send(post("/v2/assistant/acme/message", ACME_KEY,
                chat(null, null, "How do I run it?")).header("Origin", "https://docs.acme.example"));
        assertEquals(200, answer.statusCode());
        HttpHeadersAssert exposed = new HttpHeadersAssert(answer);
        exposed.is("Access-Control-Allow-Origin", "https://docs.acme.example");
        exposed.contains("Access-Control-Expose-Headers", "X-Thread-Id");
        exposed.contains("Access-Control-Expose-Headers", "X-Thread-Key");
        exposed.present("X-Thread-Id");
        exposed.present("X-Thread-Key");
    }

    /** A body as DefaultChatTransport sends it, with the widget's body fields. */
    static String chat(String threadId, String threadKey, String... userTurns) {
        ObjectNode body = JSON.createObjectNode().put("id", "chat-1").put("trigger", "submit-message")
                .put("fp", "fp-test").put("retrievalPageSize", 5);
        ArrayNode messages = body.putArray("messages");
        int n = 0;
        for (String turn : userTurns) {
            messages.addObject().put("id", "m" + n++).put("role", "user").putArray("parts").addObject()
                    .put("type", "text").put("text", turn);
        }
        if (threadId != null) {
            body.put("threadId", threadId).put("threadKey", threadKey);
        }
        return body.toString();
    }

    /** The JSON chunks of a UI message stream, without the closing [DONE]. */
    static List<JsonNode> chunks(String stream) throws Exception {
        List<JsonNode> chunks = new ArrayList<>();
        for (String event : stream.split("\n\n")) {
            if (event.startsWith("data: ") && !event.equals("data: [DONE]")) {
                chunks.add(JSON.readTree(event.substring("data: ".length())));
            }
        }
        return chunks;
    }

    private static List<String> fields(JsonNode chunk) {
        List<String> names = new ArrayList<>();
        chunk.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
