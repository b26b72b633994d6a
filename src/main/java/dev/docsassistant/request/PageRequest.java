package dev.docsassistant.request;

/** The body of {@code POST /v1/page/{domain}}: the path of one page, as search results give it. */
public record PageRequest(String path) {

    static final int MAX_PATH = 200;

    public PageRequest validate() {
        if (path == null || path.isBlank()) {
            throw new InvalidRequestException("path", "path is required, e.g. \"/quickstart\"");
        }
        if (path.length() > MAX_PATH) {
            throw new InvalidRequestException("path", "path must be at most " + MAX_PATH + " characters");
        }
        return this;
    }
}
