package dev.docsassistant.model;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.search.SearchResult;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** The model-invocation step: asks the configured model and leaves its reply for the stream step. */
public class InvokeModel implements Processor {

    private final AnswerModel model;

    public InvokeModel(AnswerModel model) {
        this.model = model;
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        ModelRequest request = new ModelRequest(
                exchange.getProperty(Tenant.PROPERTY, Tenant.class),
                exchange.getProperty(ChatRequest.PROPERTY, ChatRequest.class),
                exchange.getProperty(SearchResult.PROPERTY, SearchResult.class));
        exchange.setProperty(ModelReply.PROPERTY, model.answer(request));
    }
}
