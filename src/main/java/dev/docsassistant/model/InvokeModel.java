package dev.docsassistant.model;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.search.SearchResult;
import dev.docsassistant.web.ResponseHeaders;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The model-invocation step: asks the model bean named {@code <provider>Model} and leaves its reply for the stream
 * step. The provider is {@code assistant.model.provider}, unless a route sets the {@value #PROVIDER} exchange
 * property (to send one domain to another model, say).
 */
public class InvokeModel implements Processor {

    public static final String PROVIDER = "assistant.model.provider";

    private final String defaultProvider;

    public InvokeModel(String defaultProvider) {
        this.defaultProvider = defaultProvider;
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        String provider = exchange.getProperty(PROVIDER, defaultProvider, String.class);
        AnswerModel model = exchange.getContext().getRegistry()
                .lookupByNameAndType(provider + "Model", AnswerModel.class);
        if (model == null) {
            throw new IllegalStateException("No model provider '" + provider + "': no bean " + provider + "Model");
        }
        ModelRequest request = new ModelRequest(
                exchange.getProperty(Tenant.PROPERTY, Tenant.class),
                exchange.getProperty(ChatRequest.PROPERTY, ChatRequest.class),
                exchange.getProperty(SearchResult.PROPERTY, SearchResult.class));
        try {
            exchange.setProperty(ModelReply.PROPERTY, model.answer(request));
        } catch (ModelBusyException busy) {
            ResponseHeaders.set(exchange, "Retry-After", busy.retryAfterSeconds());
            throw busy;
        }
    }
}
