package dev.docsassistant.auth;

import dev.docsassistant.ground.ApiException;

public class DomainNotFoundException extends ApiException {

    public DomainNotFoundException(String domain) {
        super("domain_not_found", "No documentation domain '" + domain + "' is served here", null);
    }
}
