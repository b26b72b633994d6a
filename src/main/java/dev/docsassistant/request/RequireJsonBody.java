package dev.docsassistant.request;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** Refuses a body that is missing or not declared as JSON before anything tries to parse it. */
public class RequireJsonBody implements Processor {

    @Override
    public void process(Exchange exchange) {
        String type = exchange.getMessage().getHeader(Exchange.CONTENT_TYPE, String.class);
        if (!isJson(type)) {
            throw new UnsupportedMediaTypeException(
                    "Content-Type must be application/json, not " + (type == null ? "missing" : "'" + type + "'"));
        }
        if (exchange.getMessage().getBody() == null) {
            throw new InvalidRequestException(null, "The request body is required: a JSON object");
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
