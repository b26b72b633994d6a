package dev.docsassistant.search;

import java.util.stream.Collectors;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.request.ChatRequest;
import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;

/**
 * The search step, used by the {@code direct:search} route through {@code enrich}: it names the query (and the
 * cache key it is stored under), runs it against the domain's index, and attaches the result to the request.
 */
public class SearchEnrichment implements AggregationStrategy {

    private final DomainIndexes indexes;

    public SearchEnrichment(DomainIndexes indexes) {
        this.indexes = indexes;
    }

    /** The text searched for: the question, then any code or selected text the reader attached. */
    public String query(ChatRequest request) {
        if (request.context() == null || request.context().isEmpty()) {
            return request.question();
        }
        return request.question() + "\n" + request.context().stream()
                .map(ChatRequest.ContextItem::value).collect(Collectors.joining("\n"));
    }

    /** Everything the result depends on, so equal questions share one cached result. */
    public String cacheKey(Exchange exchange) {
        ChatRequest request = exchange.getProperty(ChatRequest.PROPERTY, ChatRequest.class);
        Tenant tenant = exchange.getProperty(Tenant.PROPERTY, Tenant.class);
        return tenant.domainId() + '\u0000' + request.pageSize() + '\u0000' + request.filter() + '\u0000'
                + query(request);
    }

    public SearchResult search(Exchange exchange) {
        ChatRequest request = exchange.getProperty(ChatRequest.PROPERTY, ChatRequest.class);
        Tenant tenant = exchange.getProperty(Tenant.PROPERTY, Tenant.class);
        String query = query(request);
        return new SearchResult(query, indexes.index(tenant.domainId()).search(query, request.pageSize()));
    }

    /** Attaches the search route's result to the original exchange, whose body stays the request. */
    @Override
    public Exchange aggregate(Exchange original, Exchange searched) {
        original.setProperty(SearchResult.PROPERTY, searched.getMessage().getBody(SearchResult.class));
        return original;
    }
}
