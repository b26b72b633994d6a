package dev.docsassistant.model;

import java.util.List;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.request.Attachment;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.search.DomainIndexes;
import dev.docsassistant.search.SearchResult;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.vertx.HttpMessage;

/**
 * The model-invocation step: asks the model bean named {@code <provider>Model} and leaves its reply for the stream
 * step. The provider is {@code assistant.model.provider}, unless a route sets the
 * {@value StepContract#MODEL_PROVIDER} exchange property (to send one domain to another model, say). A client that
 * leaves while the model is starting cancels it.
 * The question's attachments the model does not read are named in a notice before the answer. The model is given
 * the docs team's instructions from the domain's docs (Assistant.md).
 */
public class InvokeModel implements Processor {

    private final String defaultProvider;
    private final DomainIndexes indexes;

    public InvokeModel(String defaultProvider, DomainIndexes indexes) {
        this.defaultProvider = defaultProvider;
        this.indexes = indexes;
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        String provider = exchange.getProperty(StepContract.MODEL_PROVIDER, defaultProvider, String.class);
        AnswerModel model = exchange.getContext().getRegistry()
                .lookupByNameAndType(provider + "Model", AnswerModel.class);
        if (model == null) {
            throw new IllegalStateException("No model provider '" + provider + "': no bean " + provider + "Model");
        }
        Cancellation cancellation = new Cancellation();
        HttpMessage http = exchange.getMessage(HttpMessage.class);
        if (http != null) { // until the stream step takes the response over
            http.getResponse().closeHandler(closed -> cancellation.cancel());
        }
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        ModelRequest request = new ModelRequest(tenant,
                exchange.getProperty(StepContract.REQUEST, ChatRequest.class),
                exchange.getProperty(StepContract.SEARCH, SearchResult.class),
                exchange.getProperty(StepContract.PROMPT_NOTE, String.class),
                indexes.index(tenant.domainId()).instructions(),
                cancellation);
        ModelReply reply = model.answer(request); // ModelBusyException: 503, Retry-After
        List<String> unread = request.chat().messages().get(request.chat().messages().size() - 1).attachments()
                .stream().filter(attachment -> !model.reads(attachment)).map(Attachment::label).toList();
        exchange.setProperty(StepContract.REPLY, unread.isEmpty() ? reply : new NoticedReply(
                new ModelEvent.Notice("attachment_not_read", "Not read: " + String.join(", ", unread)
                        + ". This assistant reads images, and text files sent inline (data: URLs), when its model"
                        + " takes them; it never downloads a file."), reply));
    }
}
