package dev.docsassistant.search;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import com.github.benmanes.caffeine.cache.Cache;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.Caches;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.observe.AssistantMetrics;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.Role;
import dev.docsassistant.request.UiMessage;
import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.support.ExpressionAdapter;

/**
 * The search step, used by the {@code direct:search} route through {@code enrich}: it turns the conversation into
 * a query (and the cache key it is stored under, {@link #cacheKey(SearchEnrichment)}), runs it against the domain's index (as
 * the route's {@code ref: searchEnrichment} expression), and attaches the result to the request. The route's cache
 * ({@link #cache}) keeps only the hits under a hash of the query: no text of the client's.
 */
public class SearchEnrichment extends ExpressionAdapter implements AggregationStrategy {

    /** Earlier questions that may complete a short follow-up. */
    private static final int EARLIER_QUESTIONS = 2;

    private final DomainIndexes indexes;
    private final AssistantMetrics metrics;

    public SearchEnrichment(DomainIndexes indexes, AssistantMetrics metrics) {
        this.indexes = indexes;
        this.metrics = metrics;
    }

    /** The question, the code or text the reader attached, and the questions asked before it. */
    public SearchQuery query(ChatRequest request) {
        String context = request.context() == null ? "" : request.context().stream()
                .map(ChatRequest.ContextItem::value).collect(Collectors.joining("\n"));
        ChatRequest.Filter filter = ChatRequest.Filter.of(request.filter());
        return new SearchQuery(request.question(), context, earlierQuestions(request.messages()), filter.language(),
                filter.version(), filter.groups(), request.currentPath(), request.pageSize(), 0);
    }

    private static String earlierQuestions(List<UiMessage> messages) {
        List<String> earlier = new ArrayList<>();
        for (int i = messages.size() - 2; i >= 0 && earlier.size() < EARLIER_QUESTIONS; i--) {
            if (messages.get(i).role() == Role.USER) {
                earlier.add(messages.get(i).text());
            }
        }
        return String.join("\n", earlier);
    }

    /**
     * search.yaml's cache key ({@code ref: searchCacheKey}, made by step-beans.yaml from this factory): the request's
     * search, as the cache tells it apart.
     */
    public static Expression cacheKey(SearchEnrichment search) {
        return new ExpressionAdapter() {
            @Override
            public Object evaluate(Exchange exchange) {
                return search.cacheKey(exchange);
            }
        };
    }

    /**
     * search.yaml's cache (the bean {@code search-results}, which camel-caffeine finds by the cache's name): hits
     * by {@link #cacheKey}, at most {@code maxBytes} of them ({@link SearchHit#bytes}).
     */
    public static Cache<String, List<SearchHit>> cache(long maxBytes) {
        return Caches.<String, List<SearchHit>>weighed(maxBytes, (key, hits) -> Caches.bytes(key) + Caches.OBJECT
                + hits.stream().mapToLong(hit -> Caches.REFERENCE + hit.bytes()).sum()).build();
    }

    /**
     * Everything the result depends on, so equal questions share one cached result, hashed ({@link Caches#key}):
     * {@link SearchQuery#key()} holds every text of the query, context and earlier questions included, and the
     * record's {@code toString} cannot tell the groups {@code ["a, b"]} from {@code ["a", "b"]}.
     */
    private String cacheKey(Exchange exchange) {
        ChatRequest request = exchange.getProperty(StepContract.REQUEST, ChatRequest.class);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        return Caches.key(tenant.domainId() + '\u0000' + indexes.index(tenant.domainId()).generation() + '\u0000'
                + query(request).key());
    }

    /** The pages the domain's index finds for the request: the hits the route caches. */
    @Override
    public List<SearchHit> evaluate(Exchange exchange) {
        ChatRequest request = exchange.getProperty(StepContract.REQUEST, ChatRequest.class);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        long start = System.nanoTime();
        List<SearchHit> hits = indexes.index(tenant.domainId()).search(query(request));
        metrics.searched(tenant.domainId(), Duration.ofNanos(System.nanoTime() - start));
        return hits;
    }

    /**
     * Attaches the search route's hits, with the request's query, to the original exchange, whose body stays the
     * request.
     */
    @Override
    @SuppressWarnings("unchecked")
    public Exchange aggregate(Exchange original, Exchange searched) {
        ChatRequest request = original.getProperty(StepContract.REQUEST, ChatRequest.class);
        original.setProperty(StepContract.SEARCH,
                new SearchResult(query(request), searched.getMessage().getBody(List.class)));
        return original;
    }
}
