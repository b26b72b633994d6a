package dev.docsassistant.search;

import dev.docsassistant.ground.ApiException;

public class IndexNotReadyException extends ApiException {

    public IndexNotReadyException(String domain, boolean failed) {
        super(failed ? "index_failed" : "index_loading", failed
                ? "The documentation of '" + domain + "' could not be indexed; the operator has been told in the log"
                : "The documentation of '" + domain + "' is still being indexed; retry shortly", null);
    }
}
