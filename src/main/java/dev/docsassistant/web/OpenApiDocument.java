package dev.docsassistant.web;

import java.io.IOException;
import java.io.InputStream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.docsassistant.ground.ResponseHeaders;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Serves the API's description: {@code openapi.yaml} on the classpath, the one hand-written source, read and turned
 * into JSON once at start-up (a broken document stops the start rather than the first gateway import). It needs no
 * key, any origin may read it, and caches may keep it for an hour: it changes only with a new release.
 */
public class OpenApiDocument implements Processor {

    private static final String RESOURCE = "openapi.yaml";

    private final byte[] json;

    public OpenApiDocument() throws IOException {
        try (InputStream yaml = OpenApiDocument.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (yaml == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            json = new ObjectMapper().writeValueAsBytes(new YAMLMapper().readTree(yaml));
        }
    }

    @Override
    public void process(Exchange exchange) {
        ResponseHeaders.cacheControl(exchange, "public, max-age=3600");
        ResponseHeaders.set(exchange, "Access-Control-Allow-Origin", "*");
        exchange.getMessage().setBody(json);
        JsonResponse.headers(exchange, 200, "application/json");
    }
}
