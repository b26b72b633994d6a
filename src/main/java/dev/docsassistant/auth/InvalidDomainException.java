package dev.docsassistant.auth;

import dev.docsassistant.ground.InvalidRequestException;

/** A {@code {domain}} path segment that cannot name a domain (too long, or characters such as {@code /} or {@code ..}). */
public class InvalidDomainException extends InvalidRequestException {

    public InvalidDomainException() {
        super("domain", "domain (the path segment) must be 1-100 letters, digits, '.', '_' or '-', "
                + "starting with a letter or digit");
    }
}
