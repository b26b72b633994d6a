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

    public JsonResponse() {
        this(200);
    }

    /** @param status the response's status: 202 for work queued whose outcome is reported elsewhere */
    public JsonResponse(int status) {
        this.status = status;
    }

    @Override
    public void process(Exchange exchange) {
        headers(exchange, status, "application/json");
    }

    static void headers(Exchange exchange, int status, String contentType) {
        Message message = exchange.getMessage();
        message.removeHeaders("*");
        ResponseHeaders.of(exchange).forEach(message::setHeader);
        message.setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        message.setHeader(Exchange.CONTENT_TYPE, contentType);
    }
}
