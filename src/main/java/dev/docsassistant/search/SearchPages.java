package dev.docsassistant.search;

import org.apache.camel.Exchange;
import org.apache.camel.support.ExpressionAdapter;

/** search.yaml's search ({@code ref: searchPages}): the pages the domain's index finds for the request. */
public class SearchPages extends ExpressionAdapter {

    private final SearchEnrichment search;

    public SearchPages(SearchEnrichment search) {
        this.search = search;
    }

    @Override
    public Object evaluate(Exchange exchange) {
        return search.search(exchange);
    }
}
