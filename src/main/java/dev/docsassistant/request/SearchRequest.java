package dev.docsassistant.request;

import dev.docsassistant.ground.InvalidRequestException;

/**
 * The body of {@code POST /v1/search/{domain}}, Mintlify's discovery search: a query, how many pages, and
 * optionally a minimum score and a version, language or the reader's groups.
 */
public record SearchRequest(String query, Integer pageSize, Double scoreThreshold, ChatRequest.Filter filter) {

    public static final int DEFAULT_PAGE_SIZE = 10;
    static final int MAX_PAGE_SIZE = 50;
    static final int MAX_QUERY = 2_000;

    public int size() {
        return pageSize == null ? DEFAULT_PAGE_SIZE : pageSize;
    }

    public double threshold() {
        return scoreThreshold == null ? 0 : scoreThreshold;
    }

    /** The rules Jackson's binding cannot express; each failure names its field. */
    public SearchRequest validate() {
        if (query == null || query.isBlank()) {
            throw new InvalidRequestException("query", "query is required and must not be blank");
        }
        if (query.length() > MAX_QUERY) {
            throw new InvalidRequestException("query", "query must be at most " + MAX_QUERY + " characters");
        }
        if (pageSize != null && (pageSize < 1 || pageSize > MAX_PAGE_SIZE)) {
            throw new InvalidRequestException("pageSize", "pageSize must be between 1 and " + MAX_PAGE_SIZE);
        }
        if (scoreThreshold != null && !(scoreThreshold >= 0 && scoreThreshold <= 1)) {
            throw new InvalidRequestException("scoreThreshold", "scoreThreshold must be between 0 and 1");
        }
        ChatRequest.Filter.validate(filter);
        return this;
    }
}
