package dev.docsassistant.model;

import java.io.InputStream;
import java.util.List;

import org.apache.camel.Exchange;
import org.apache.camel.builder.ExchangeBuilder;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.spi.Synchronization;

/**
 * Ends the chat-completions route with the upstream's body still open. camel-http closes a streamed body when its
 * exchange's unit of work completes, which is as soon as this route returns; so that work is handed over to the
 * {@link UpstreamResponse} and runs only when the reader releases the body.
 */
public class ChatCompletionsResponse implements Processor {

    @Override
    public void process(Exchange exchange) {
        Message message = exchange.getMessage();
        Exchange holder = ExchangeBuilder.anExchange(exchange.getContext()).build();
        if (exchange.getUnitOfWork() != null) {
            exchange.getUnitOfWork().handoverSynchronization(holder);
        }
        exchange.getExchangeExtension().handoverCompletions(holder);
        List<Synchronization> handedOver = holder.getExchangeExtension().handoverCompletions();
        List<Synchronization> completions = handedOver == null ? List.of() : handedOver;
        Runnable release = () -> {
            for (Synchronization completion : completions) {
                try {
                    completion.onComplete(exchange);
                } catch (RuntimeException ignored) {
                    // the body is gone either way
                }
            }
        };
        message.setBody(new UpstreamResponse(message.getHeader(Exchange.HTTP_RESPONSE_CODE, 0, Integer.class),
                message.getHeader("Retry-After", String.class), message.getBody(InputStream.class), release));
    }
}
