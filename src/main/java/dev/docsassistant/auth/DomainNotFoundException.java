package dev.docsassistant.auth;

import dev.docsassistant.web.ApiException;

public class DomainNotFoundException extends ApiException {

    public DomainNotFoundException(String domain) {
        super("domain_not_found", "No documentation domain '" + domain + "' is served here", null);
    }
}
