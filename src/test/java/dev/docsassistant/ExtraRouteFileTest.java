package dev.docsassistant;

import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Behaviour changed by YAML alone: the shipped example step, loaded from {@code assistant.routes-dir}, adds a header
 * check to the pipeline.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.routes-dir=k8s/examples"})
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
