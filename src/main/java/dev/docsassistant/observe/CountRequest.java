package dev.docsassistant.observe;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** metrics.yaml's step ({@code ref: countRequest}): counts each request once it is answered. */
public class CountRequest implements Processor {

    private final AssistantMetrics metrics;

    public CountRequest(AssistantMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void process(Exchange exchange) {
        metrics.requestCompleted(exchange);
    }
}
