package dev.docsassistant;

import java.net.http.HttpResponse;
import java.util.List;

import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every v1 message response, errors included, is marked deprecated as RFC 9745 and RFC 8594 say; /v2 is not. */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false", "assistant.v1.deprecated-at=2026-11-01T00:00:00Z",
        "assistant.v1.sunset=2027-06-30T00:00:00Z", "assistant.v1.migration-url=https://docs.example/migrate-to-v2"})
class DeprecationHeadersTest extends ServiceTest {

    @Test
    void everyV1ResponseIsMarkedDeprecatedWithItsSuccessor() throws Exception {
        List<HttpResponse<String>> responses = List.of(
                ask("acme", ACME_KEY, question("How do I run it?")),
                ask("acme", null, question("How do I run it?")),
                ask("acme", ACME_KEY, "{\"fp\":\"f\"}"));
        assertEquals(List.of(200, 401, 400), responses.stream().map(HttpResponse::statusCode).toList());
        for (HttpResponse<String> response : responses) {
            HttpHeadersAssert headers = new HttpHeadersAssert(response);
            headers.is("Deprecation", "@1793491200");
            headers.is("Sunset", "Wed, 30 Jun 2027 00:00:00 GMT");
            headers.is("Link", "<https://docs.example/migrate-to-v2>; rel=\"deprecation\", "
                    + "</v2/assistant/acme/message>; rel=\"successor-version\"");
        }
        HttpResponse<String> v2 = send(post("/v2/assistant/acme/message", ACME_KEY,
                AssistantV2EndpointTest.chat(null, null, "How do I run it?")));
        assertEquals(200, v2.statusCode());
        assertTrue(v2.headers().firstValue("Deprecation").isEmpty());
    }
}
