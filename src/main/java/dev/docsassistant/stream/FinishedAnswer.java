package dev.docsassistant.stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.Json;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.StreamedAnswer;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.thread.ThreadRef;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * What the after-answer steps see: the answer the client was sent, as the body (a JSON document: domain, threadId,
 * messageId, question, answer, complete, sources) and as the exchange properties
 * {@value StepContract#ANSWER_TEXT} and {@value StepContract#ANSWER_COMPLETE}. It runs on the copy of the exchange those steps get once the response has ended.
 */
public class FinishedAnswer implements Processor {

    private static final ObjectMapper JSON = Json.mapper();

    @Override
    public void process(Exchange exchange) throws Exception {
        StreamedAnswer answer = exchange.getProperty(StepContract.ANSWER, StreamedAnswer.class);
        exchange.setProperty(StepContract.ANSWER_TEXT, answer.text());
        exchange.setProperty(StepContract.ANSWER_COMPLETE, answer.complete());
        ObjectNode body = JSON.createObjectNode()
                .put("domain", exchange.getProperty(StepContract.TENANT, Tenant.class).domainId())
                .put("threadId", exchange.getProperty(StepContract.THREAD, ThreadRef.class).id())
                .put("messageId", answer.messageId())
                .put("question", exchange.getProperty(StepContract.REQUEST, ChatRequest.class).question())
                .put("answer", answer.text())
                .put("complete", answer.complete());
        ArrayNode sources = body.putArray("sources");
        for (Source source : answer.sources()) {
            sources.addObject().put("title", source.title()).put("url", source.url());
        }
        exchange.getMessage().setBody(JSON.writeValueAsString(body));
    }
}
