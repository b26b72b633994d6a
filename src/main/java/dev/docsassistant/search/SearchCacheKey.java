package dev.docsassistant.search;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.camel.Exchange;
import org.apache.camel.support.ExpressionAdapter;

/** search.yaml's cache key ({@code ref: searchCacheKey}): the request's search, as the cache tells it apart. */
public class SearchCacheKey extends ExpressionAdapter {

    private final SearchEnrichment search;

    public SearchCacheKey(SearchEnrichment search) {
        this.search = search;
    }

    @Override
    public Object evaluate(Exchange exchange) {
        try {
            return search.cacheKey(exchange);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A query is plain data: it always serializes", e);
        }
    }
}
