package dev.docsassistant;

import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Behaviour changed by YAML alone: an extra route file, loaded from a folder named in
 * {@code camel.main.routes-include-pattern}, adds a header check in front of the pipeline.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "camel.main.routes-include-pattern=classpath:routes/*.yaml,file:src/test/resources/extra-routes/*.yaml"})
class ExtraRouteFileTest extends ServiceTest {

    @Test
    void theExtraStepRejectsRequestsWithoutTheHeader() throws Exception {
        HttpResponse<String> refused = ask("acme", ACME_KEY, question("How do I run it?"));
        JsonNode problem = AssistantEndpointTest.assertProblem(refused, 403, "forbidden");
        assertEquals("Send the X-Docs-Team header", problem.get("detail").asText());

        HttpResponse<String> allowed = send(post("/v1/assistant/acme/message", ACME_KEY, question("How do I run it?"))
                .header("X-Docs-Team", "platform"));
        assertEquals(200, allowed.statusCode(), allowed.body());
    }
}
