package dev.docsassistant.search;

import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.PageRequest;
import dev.docsassistant.request.SearchRequest;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.support.ExpressionAdapter;

/**
 * Mintlify's discovery API over a domain's index: {@code /v1/search/{domain}} returns the best pages for a query and
 * {@code /v1/page/{domain}} one page's content. The routes unmarshal and authorize; the expressions made by
 * {@link #search(Discovery)} and {@link #page(Discovery)} answer, as each route's {@code setBody}.
 */
public class Discovery {

    private final DomainIndexes indexes;

    public Discovery(DomainIndexes indexes) {
        this.indexes = indexes;
    }

    /** One search result as Mintlify's API returns it. */
    public record Result(String content, String path, Metadata metadata) {
    }

    /** {@code score}: the result's relevance from 0 to 1 ({@link SearchHit#relevance}), what scoreThreshold bounds. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Metadata(String title, String url, String version, String language, List<String> breadcrumb,
            Double score) {
    }

    public record PageContent(String path, String content) {
    }

    /**
     * discovery-v1.yaml's search answer ({@code setBody: ref: discoverySearch}, made by step-beans.yaml from this factory),
     * without a reflective call per request.
     */
    public static Expression search(Discovery discovery) {
        return body(discovery::results);
    }

    /** discovery-v1.yaml's page answer ({@code setBody: ref: discoveryPage}), likewise. */
    public static Expression page(Discovery discovery) {
        return body(discovery::pageContent);
    }

    private static Expression body(Function<Exchange, Object> answer) {
        return new ExpressionAdapter() {
            @Override
            public Object evaluate(Exchange exchange) {
                return answer.apply(exchange);
            }
        };
    }

    private List<Result> results(Exchange exchange) {
        SearchRequest request = exchange.getMessage().getBody(SearchRequest.class).validate();
        ChatRequest.Filter filter = ChatRequest.Filter.of(request.filter());
        // Mintlify's defaults: an omitted language or version searches every one; boosts apply (in-product search)
        SearchQuery query = new SearchQuery(request.query(), "", "",
                filter.language() == null ? SearchQuery.EVERY : filter.language(),
                filter.version() == null ? SearchQuery.EVERY : filter.version(), filter.groups(), null, request.size(),
                request.threshold(), filter.tag(), true);
        return index(exchange).search(query).stream()
                .map(hit -> new Result(hit.content(), hit.path(), new Metadata(hit.title(), hit.sectionUrl(),
                        hit.page().version(), hit.page().language(), hit.page().breadcrumb(),
                        Double.isNaN(hit.relevance()) ? null : Math.round(hit.relevance() * 1000) / 1000.0)))
                .toList();
    }

    private PageContent pageContent(Exchange exchange) {
        PageRequest request = exchange.getMessage().getBody(PageRequest.class).validate();
        Page page = index(exchange).page(request.path(), request.readerGroups())
                .orElseThrow(() -> new PageNotFoundException(request.path()));
        String summary = page.description().isEmpty() ? "" : page.description() + "\n\n";
        return new PageContent(page.path(), "# " + page.markdownTitle() + "\n\n" + summary + page.content());
    }

    private DomainIndex index(Exchange exchange) {
        return indexes.index(exchange.getProperty(StepContract.TENANT, Tenant.class).domainId());
    }
}
