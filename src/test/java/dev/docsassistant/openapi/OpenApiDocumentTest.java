package dev.docsassistant.openapi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.docsassistant.ServiceTest;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /openapi.json: the description gateways import, valid OpenAPI 3.1, open to any origin without a key; and the
 * traffic check every service test ends with does catch a response that breaks the description.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false"})
class OpenApiDocumentTest extends ServiceTest {

    @Test
    void theDocumentIsServedAsJsonToAnyOriginWithoutAKey() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/openapi.json"))
                .header("Origin", "https://gateway.example"));
        assertEquals(200, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("*", response.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
        assertTrue(response.headers().firstValue("Cache-Control").orElseThrow().contains("max-age"));
        assertEquals(ApiDescription.get().document(), JSON.readTree(response.body()), "the YAML source, as JSON");
    }

    @Test
    void theDocumentIsValidOpenApi31() throws Exception {
        JsonNode served = JSON.readTree(send(HttpRequest.newBuilder(uri("/openapi.json"))).body());
        assertEquals("3.1.0", served.get("openapi").asText());
        List<Error> errors = oas31Schema().validate(served);
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void theOfficialSchemaRefusesABrokenDocumentOrSchema() {
        JsonNode noLocation = ApiDescription.get().document().deepCopy();
        ((ObjectNode) noLocation.at("/components/parameters/domain")).remove("in");
        assertFalse(oas31Schema().validate(noLocation).isEmpty(), "a parameter without 'in'");

        JsonNode badType = ApiDescription.get().document().deepCopy();
        ((ObjectNode) badType.at("/components/schemas/Fingerprint")).put("type", "strnig");
        assertFalse(oas31Schema().validate(badType).isEmpty(), "a schema of an unknown type");
    }

    /** The check is not vacuous: the traffic is recorded, and a response unlike the document is reported. */
    @Test
    void aRefusalUnlikeTheDocumentIsReported() throws Exception {
        ApiTraffic.Recorded refused = recorded(post("/v1/search/acme", ACME_KEY, "{\"query\": \"\"}"), 400);
        refused.responseHeaders().remove("X-Request-Id");
        assertEquals(1, ApiDescription.get().mismatches(List.of(refused)).size(), "a required header missing");
    }

    @Test
    void aStreamUnlikeTheDocumentIsReported() throws Exception {
        ApiTraffic.Recorded answer = recorded(post("/v1/assistant/acme/message", ACME_KEY, question("Port?")), 200);
        answer.responseHeaders().put("Content-Type", List.of("text/event-stream"));
        assertFalse(ApiDescription.get().mismatches(List.of(answer)).isEmpty(), "the other version's stream type");
    }

    @Test
    void aMethodThePathDoesNotTakeMustBeRefusedAsAProblem() throws Exception {
        ApiTraffic.Recorded refused = recorded(HttpRequest.newBuilder(uri("/v1/search/acme")).DELETE(), 405);
        refused.responseHeaders().put("Content-Type", List.of("text/plain"));
        assertEquals(1, ApiDescription.get().mismatches(List.of(refused)).size(), "not a problem");
    }

    /** Sends the request; asserts its status, that it alone was recorded, and that it matches the document. */
    private ApiTraffic.Recorded recorded(HttpRequest.Builder request, int status) throws Exception {
        ApiTraffic traffic = ApiTraffic.of(context);
        traffic.drain();
        assertEquals(status, send(request).statusCode());
        List<ApiTraffic.Recorded> recorded = traffic.drain();
        assertEquals(1, recorded.size(), recorded.toString());
        assertEquals(List.of(), ApiDescription.get().mismatches(recorded));
        return recorded.get(0);
    }

    /**
     * The official schema of OpenAPI 3.1 documents whose Schema Objects use the OpenAPI dialect (the default): the
     * document's structure and each of its schemas. Its parts refer to each other by their published ids, served
     * here from the copies in src/test/resources/oas-3.1.
     */
    private static Schema oas31Schema() {
        Map<String, String> parts = new HashMap<>();
        for (String part : List.of("schema", "schema-base", "dialect", "meta")) {
            JsonNode content = yaml("oas-3.1/" + part + ".yaml");
            parts.put(content.get("$id").asText(), content.toString());
        }
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, registry -> registry.schemas(parts))
                .getSchema(SchemaLocation.of(yaml("oas-3.1/schema-base.yaml").get("$id").asText()));
    }

    private static JsonNode yaml(String resource) {
        try (InputStream in = OpenApiDocumentTest.class.getClassLoader().getResourceAsStream(resource)) {
            return new YAMLMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
