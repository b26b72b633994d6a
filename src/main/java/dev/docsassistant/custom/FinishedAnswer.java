package dev.docsassistant.custom;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.config.Json;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.model.Source;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.stream.StreamedAnswer;
import dev.docsassistant.thread.ThreadRef;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * What the after-answer steps see: the answer the client was sent, as the body (a JSON document: domain, threadId,
 * messageId, question, answer, complete, sources) and as the exchange properties {@value #TEXT} and
 * {@value #COMPLETE}. It runs on the copy of the exchange those steps get once the response has ended.
 */
public class FinishedAnswer implements Processor {

    /** The answer's text, as streamed (cut short if {@value #COMPLETE} is false). */
    public static final String TEXT = "assistant.answer.text";
    /** Whether the answer was complete: not cut short by an error, a disconnect or the shutdown. */
    public static final String COMPLETE = "assistant.answer.complete";

    private static final ObjectMapper JSON = Json.mapper();

    @Override
    public void process(Exchange exchange) throws Exception {
        StreamedAnswer answer = exchange.getProperty(StreamedAnswer.PROPERTY, StreamedAnswer.class);
        exchange.setProperty(TEXT, answer.text());
        exchange.setProperty(COMPLETE, answer.complete());
        ObjectNode body = JSON.createObjectNode()
                .put("domain", exchange.getProperty(Tenant.PROPERTY, Tenant.class).domainId())
                .put("threadId", exchange.getProperty(ThreadRef.PROPERTY, ThreadRef.class).id())
                .put("messageId", answer.messageId())
                .put("question", exchange.getProperty(ChatRequest.PROPERTY, ChatRequest.class).question())
                .put("answer", answer.text())
                .put("complete", answer.complete());
        ArrayNode sources = body.putArray("sources");
        for (Source source : answer.sources()) {
            sources.addObject().put("title", source.title()).put("url", source.url());
        }
        exchange.getMessage().setBody(JSON.writeValueAsString(body));
    }
}
