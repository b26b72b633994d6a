package dev.docsassistant.request;

import java.util.List;
import java.util.stream.Stream;

import dev.docsassistant.ground.InvalidRequestException;

/**
 * The body of {@code POST /v1/page/{domain}}: the path of one page, as search results give it, and the reader's
 * {@code groups} when the page may be restricted to user groups, at the top level as Mintlify's ({@code {"path":
 * "/admin", "groups": ["admin"]}}) or in the search's {@code filter} (only its groups matter here); both count.
 */
public record PageRequest(String path, List<String> groups, ChatRequest.Filter filter) {

    public PageRequest {
        groups = groups == null ? List.of() : groups;
    }

    /** The reader's groups, from either place. */
    public List<String> readerGroups() {
        List<String> inFilter = ChatRequest.Filter.of(filter).groups();
        if (inFilter.isEmpty()) {
            return groups;
        }
        return groups.isEmpty() ? inFilter : Stream.concat(groups.stream(), inFilter.stream()).toList();
    }

    static final int MAX_PATH = 200;

    public PageRequest validate() {
        if (path == null || path.isBlank()) {
            throw new InvalidRequestException("path", "path is required, e.g. \"/quickstart\"");
        }
        if (path.length() > MAX_PATH) {
            throw new InvalidRequestException("path", "path must be at most " + MAX_PATH + " characters");
        }
        ChatRequest.Filter.validateGroups(groups, "groups");
        ChatRequest.Filter.validate(filter);
        return this;
    }
}
