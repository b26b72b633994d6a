package dev.docsassistant.search;

import dev.docsassistant.web.ApiException;

public class IndexNotReadyException extends ApiException {

    public IndexNotReadyException(String domain) {
        super("index_loading", "The documentation of '" + domain + "' is still being indexed; retry shortly", null);
    }
}
