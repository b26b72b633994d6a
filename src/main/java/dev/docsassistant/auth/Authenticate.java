package dev.docsassistant.auth;

import dev.docsassistant.config.Secrets;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.config.TenantsFile;
import dev.docsassistant.web.ResponseHeaders;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Checks the widget's public bearer key and that its organization owns the {@code {domain}} asked about, then sets
 * the {@link Tenant} every later step works for. The key itself goes no further than this step.
 */
public class Authenticate implements Processor {

    /** The exchange property naming the key that authenticated, by its SHA-256 digest (for the per-key quota). */
    public static final String KEY_ID = "assistant.keyId";

    private static final String BEARER = "Bearer ";

    private final Tenants tenants;
    private final String keyPrefix;

    public Authenticate(Tenants tenants, String keyPrefix) {
        this.tenants = tenants;
        this.keyPrefix = keyPrefix;
    }

    @Override
    public void process(Exchange exchange) {
        String key = bearerKey(exchange.getMessage().getHeader("Authorization", String.class));
        if (key == null) {
            ResponseHeaders.set(exchange, "WWW-Authenticate", "Bearer");
            throw new UnauthorizedException("Send the assistant key as 'Authorization: Bearer " + keyPrefix + "…'");
        }
        TenantsFile.Organization organization = tenants.organizationForKey(key);
        if (organization == null) {
            ResponseHeaders.set(exchange, "WWW-Authenticate", "Bearer error=\"invalid_token\"");
            throw new UnauthorizedException("The assistant key is not valid");
        }
        String domainId = exchange.getMessage().getHeader("domain", String.class);
        if (!Tenants.isDomainId(domainId)) {
            throw new InvalidDomainException();
        }
        Tenant tenant = tenants.tenant(domainId);
        if (tenant == null) {
            throw new DomainNotFoundException(domainId);
        }
        if (!tenant.organizationId().equals(organization.id())) {
            throw new ForbiddenException("This assistant key may not be used for domain '" + domainId + "'");
        }
        exchange.setProperty(Tenant.PROPERTY, tenant);
        exchange.setProperty(KEY_ID, Secrets.sha256(key));
    }

    private String bearerKey(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        String key = authorization.substring(BEARER.length()).trim();
        return key.startsWith(keyPrefix) && key.length() > keyPrefix.length() ? key : null;
    }
}
