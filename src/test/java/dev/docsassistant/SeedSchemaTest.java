package dev.docsassistant;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import static dev.docsassistant.AssistantEndpointTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The v1 schema both ways: what AI SDK v4's {@code UIMessage} (and Mintlify's schema) makes required is required,
 * each missing field refused with its path; and an integer may be written as any JSON number with an integral value.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false", ServiceTest.UNLIMITED_ADDRESS_RATE})
class SeedSchemaTest extends ServiceTest {

    private static final String TEXT = "{\"type\":\"text\",\"text\":\"How do I run it?\"}";

    /** name, the first message's field, its raw JSON value (null: the field left out), the field path refused. */
    private static final List<String[]> REQUIRED = List.of(
            new String[] {"parts missing", "parts", null, "messages[0].parts"},
            new String[] {"parts null", "parts", "null", "messages[0].parts"},
            new String[] {"parts empty", "parts", "[]", "messages[0].parts"},
            new String[] {"reasoning without details", "parts",
                    "[{\"type\":\"reasoning\",\"reasoning\":\"r\"}," + TEXT + "]", "messages[0].parts[0].details"},
            new String[] {"reasoning detail without text", "parts",
                    "[{\"type\":\"reasoning\",\"reasoning\":\"r\",\"details\":[{\"type\":\"text\"}]}," + TEXT + "]",
                    "messages[0].parts[0].details[0].text"},
            new String[] {"redacted detail without data", "parts",
                    "[{\"type\":\"reasoning\",\"reasoning\":\"r\",\"details\":[{\"type\":\"text\",\"text\":\"t\"},"
                            + "{\"type\":\"redacted\"}]}," + TEXT + "]", "messages[0].parts[0].details[1].data"},
            new String[] {"source without id", "parts",
                    "[{\"type\":\"source\",\"source\":{\"sourceType\":\"url\",\"url\":\"https://a.example\"}},"
                            + TEXT + "]", "messages[0].parts[0].source.id"},
            new String[] {"tool invocation without args", "parts",
                    "[{\"type\":\"tool-invocation\",\"toolInvocation\":{\"state\":\"call\",\"toolCallId\":\"c\","
                            + "\"toolName\":\"search\"}}," + TEXT + "]", "messages[0].parts[0].toolInvocation.args"},
            new String[] {"tool result without result", "parts",
                    "[{\"type\":\"tool-invocation\",\"toolInvocation\":{\"state\":\"result\",\"toolCallId\":\"c\","
                            + "\"toolName\":\"search\",\"args\":{}}}," + TEXT + "]",
                    "messages[0].parts[0].toolInvocation.result"},
            new String[] {"createdAt not a date", "createdAt", "\"yesterday\"", "messages[0].createdAt"},
            new String[] {"annotations an object", "annotations", "{\"a\":1}", "messages[0].annotations"},
            new String[] {"annotations a string", "annotations", "\"a\"", "messages[0].annotations"});

    @TestFactory
    Stream<DynamicTest> eachRequiredFieldIsRefusedWithItsPath() {
        return REQUIRED.stream().map(row -> DynamicTest.dynamicTest(row[0], () -> {
            JsonNode problem = assertProblem(ask("acme", ACME_KEY, withFirstMessage(row[1], row[2])), 400,
                    "invalid_request");
            assertEquals(row[3], problem.get("field").asText(), problem.toString());
        }));
    }

    /** The same fields present, as ai@4.3's useChat sends them: answered. */
    @TestFactory
    Stream<DynamicTest> theCompleteShapesAreAnswered() {
        return Stream.of(
                "[{\"type\":\"reasoning\",\"reasoning\":\"r\",\"details\":[{\"type\":\"text\",\"text\":\"t\"},"
                        + "{\"type\":\"redacted\",\"data\":\"d\"}]}," + TEXT + "]",
                "[{\"type\":\"source\",\"source\":{\"sourceType\":\"url\",\"id\":\"s1\",\"url\":\"https://a.example\"}},"
                        + TEXT + "]",
                "[{\"type\":\"tool-invocation\",\"toolInvocation\":{\"state\":\"result\",\"toolCallId\":\"c\","
                        + "\"toolName\":\"search\",\"args\":{\"query\":\"q\"},\"result\":[]}}," + TEXT + "]")
                .map(parts -> DynamicTest.dynamicTest(parts, () -> {
                    HttpResponse<String> answer = ask("acme", ACME_KEY, withFirstMessage("parts", parts));
                    assertEquals(200, answer.statusCode(), answer.body());
                }));
    }

    @TestFactory
    Stream<DynamicTest> integralNumbersAreIntegers() {
        return Stream.of("5.0", "1e1", "1.0E1", "50.000").map(value -> DynamicTest.dynamicTest(value, () -> {
            ObjectNode body = (ObjectNode) JSON.readTree(question("How do I run it?"));
            String raw = body.put("retrievalPageSize", 0).toString().replace("\"retrievalPageSize\":0",
                    "\"retrievalPageSize\":" + value);
            HttpResponse<String> answer = ask("acme", ACME_KEY, raw);
            assertEquals(200, answer.statusCode(), answer.body());
            HttpResponse<String> search = send(post("/v1/search/acme", ACME_KEY,
                    "{\"query\":\"port\",\"pageSize\":" + value + "}"));
            assertEquals(200, search.statusCode(), search.body());
        }));
    }

    @TestFactory
    Stream<DynamicTest> fractionsAreNotIntegers() {
        return Stream.of("5.5", "1e-1", "1e10").map(value -> DynamicTest.dynamicTest(value, () -> {
            String raw = question("How do I run it?").replace("\"retrievalPageSize\":5",
                    "\"retrievalPageSize\":" + value);
            JsonNode problem = assertProblem(ask("acme", ACME_KEY, raw), 400, "invalid_request");
            assertEquals("retrievalPageSize", problem.get("field").asText(), problem.toString());
        }));
    }

    private static String withFirstMessage(String field, String rawValue) throws Exception {
        ObjectNode body = (ObjectNode) JSON.readTree(question("How do I run it?"));
        ObjectNode message = (ObjectNode) body.get("messages").get(0);
        if (rawValue == null) {
            message.remove(field);
        } else {
            message.set(field, JSON.readTree(rawValue));
        }
        return body.toString();
    }
}
