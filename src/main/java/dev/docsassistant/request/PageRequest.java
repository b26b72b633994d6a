package dev.docsassistant.request;

import dev.docsassistant.ground.InvalidRequestException;

/**
 * The body of {@code POST /v1/page/{domain}}: the path of one page, as search results give it, and the search's
 * {@code filter} when the page may be restricted to user groups ({@code {"path": "/admin", "filter": {"groups":
 * ["admin"]}}}; only its groups matter here).
 */
public record PageRequest(String path, ChatRequest.Filter filter) {

    static final int MAX_PATH = 200;

    public PageRequest validate() {
        if (path == null || path.isBlank()) {
            throw new InvalidRequestException("path", "path is required, e.g. \"/quickstart\"");
        }
        if (path.length() > MAX_PATH) {
            throw new InvalidRequestException("path", "path must be at most " + MAX_PATH + " characters");
        }
        ChatRequest.Filter.validate(filter);
        return this;
    }
}
