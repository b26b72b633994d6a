package dev.docsassistant.request;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Refuses a body that is missing, not declared as JSON, or not well-formed UTF-8 (JSON's only encoding on the wire)
 * before anything tries to parse it. Jackson alone lets some malformed UTF-8 through (an overlong {@code /}, say).
 */
public class RequireJsonBody implements Processor {

    @Override
    public void process(Exchange exchange) {
        String type = exchange.getMessage().getHeader(Exchange.CONTENT_TYPE, String.class);
        if (!isJson(type)) {
            throw new UnsupportedMediaTypeException(
                    "Content-Type must be application/json, not " + (type == null ? "missing" : "'" + type + "'"));
        }
        byte[] body = exchange.getMessage().getBody(byte[].class);
        if (body == null) {
            throw new InvalidRequestException(null, "The request body is required: a JSON object");
        }
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body));
        } catch (CharacterCodingException e) {
            throw new InvalidRequestException(null, "The request body is not valid UTF-8");
        }
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int end = contentType.indexOf(';');
        String mediaType = (end < 0 ? contentType : contentType.substring(0, end)).trim();
        return mediaType.equalsIgnoreCase("application/json");
    }
}
