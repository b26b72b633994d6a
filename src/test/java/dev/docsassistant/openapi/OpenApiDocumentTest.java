package dev.docsassistant.openapi;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
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
    void theOfficialSchemaRefusesABrokenDocument() throws Exception {
        JsonNode broken = ApiDescription.get().document().deepCopy();
        ((ObjectNode) broken.at("/components/parameters/domain")).remove("in");
        assertFalse(oas31Schema().validate(broken).isEmpty());
    }

    /** The check is not vacuous: the traffic is recorded, and a response unlike the document is reported. */
    @Test
    void aResponseUnlikeTheDocumentIsReported() throws Exception {
        ApiTraffic traffic = ApiTraffic.of(context);
        traffic.drain();
        HttpResponse<String> refused = send(post("/v1/search/acme", ACME_KEY, "{\"query\": \"\"}"));
        assertEquals(400, refused.statusCode());
        List<ApiTraffic.Recorded> recorded = traffic.drain();
        assertEquals(1, recorded.size(), recorded.toString());
        assertEquals(List.of(), ApiDescription.get().mismatches(recorded));

        ApiTraffic.Recorded exchange = recorded.get(0);
        exchange.responseHeaders().remove("X-Request-Id");
        assertEquals(1, ApiDescription.get().mismatches(recorded).size(), "a required header missing");
    }

    private static com.networknt.schema.Schema oas31Schema() throws IOException {
        try (InputStream schema = OpenApiDocumentTest.class.getClassLoader()
                .getResourceAsStream("oas-3.1-schema.yaml")) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(new YAMLMapper().readTree(schema));
        }
    }
}
