package dev.docsassistant.web;

import dev.docsassistant.ground.ResponseHeaders;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;

/**
 * Finishes a JSON response that Camel writes itself: the request's headers are dropped (platform-http would echo
 * them back, credentials included) and only the steps' {@link ResponseHeaders} are sent.
 */
public class JsonResponse implements Processor {

    private final int status;
    private final String contentType;

    public JsonResponse() {
        this(200);
    }

    /** @param status the response's status: 202 for work queued whose outcome is reported elsewhere */
    public JsonResponse(int status) {
        this(status, "application/json");
    }

    /** @param contentType the body's type: the text files agents.yaml serves are Markdown or plain text */
    public JsonResponse(int status, String contentType) {
        this.status = status;
        this.contentType = contentType;
    }

    @Override
    public void process(Exchange exchange) {
        headers(exchange, status, contentType);
    }

    static void headers(Exchange exchange, int status, String contentType) {
        Message message = exchange.getMessage();
        message.removeHeaders("*");
        ResponseHeaders.of(exchange).forEach(message::setHeader);
        message.setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        message.setHeader(Exchange.CONTENT_TYPE, contentType);
    }
}
