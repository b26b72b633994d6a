package dev.docsassistant.web;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.request.JsonErrors;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renders the caught exception as an RFC 9457 {@code application/problem+json} body for the status the error
 * routeConfiguration chose. The body is also readable as plain text, which is what {@code useChat} shows. Request
 * headers are dropped so none is echoed back; only the steps' {@link ResponseHeaders} are sent.
 */
public class ProblemResponse implements Processor {

    private static final Logger LOG = LoggerFactory.getLogger(ProblemResponse.class);

    private final ObjectMapper json = new ObjectMapper();

    @Override
    public void process(Exchange exchange) throws Exception {
        Message message = exchange.getMessage();
        int status = message.getHeader(Exchange.HTTP_RESPONSE_CODE, 500, Integer.class);
        Throwable error = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        if (error instanceof JsonProcessingException parseError) {
            error = JsonErrors.describe(parseError);
        }

        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "about:blank");
        problem.put("title", HttpResponseStatus.valueOf(status).reasonPhrase());
        problem.put("status", status);
        if (error instanceof ApiException refused) {
            problem.put("detail", refused.getMessage());
            problem.put("code", refused.code());
            if (refused.field() != null) {
                problem.put("field", refused.field());
            }
            if (refused.retryAfterSeconds() != null) {
                ResponseHeaders.set(exchange, "Retry-After", refused.retryAfterSeconds());
            }
        } else {
            LOG.error("Unexpected failure on {}", message.getHeader(Exchange.HTTP_PATH), error);
            problem.put("detail", "The assistant failed to answer; please try again.");
            problem.put("code", "internal_error");
        }
        problem.put("message", problem.get("detail"));

        message.setBody(json.writeValueAsString(problem));
        JsonResponse.headers(exchange, status, "application/problem+json");
    }
}
