package dev.docsassistant.web;

import dev.docsassistant.auth.ForbiddenException;

/** A browser request from an origin the domain's {@code allowedOrigins} do not list. */
public class OriginNotAllowedException extends ForbiddenException {

    public OriginNotAllowedException(String domain) {
        super("origin_not_allowed", "This page's origin may not use the assistant of domain '" + domain + "'");
    }
}
