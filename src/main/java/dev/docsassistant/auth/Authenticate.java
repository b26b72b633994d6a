package dev.docsassistant.auth;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.config.TenantsFile;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.Secrets;
import dev.docsassistant.ground.StepContract;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Checks the bearer key and that its organization owns the {@code {domain}} asked about, then sets the
 * {@link Tenant} every later step works for. The key itself goes no further than this step. The public endpoints take
 * the widget's public keys only, the admin endpoints ({@link #admin}) the organization's {@code adminKeys} only: a
 * key of the other kind is not valid there.
 */
public class Authenticate implements Processor {

    private static final String BEARER = "Bearer ";

    private final Tenants tenants;
    private final String keyPrefix;
    private final boolean admin;

    public Authenticate(Tenants tenants, String keyPrefix) {
        this(tenants, keyPrefix, false);
    }

    private Authenticate(Tenants tenants, String keyPrefix, boolean admin) {
        this.tenants = tenants;
        this.keyPrefix = keyPrefix;
        this.admin = admin;
    }

    /** The admin endpoints' step ({@code ref: authenticateAdmin}, made by step-beans.yaml): admin keys only. */
    public static Authenticate admin(Tenants tenants) {
        return new Authenticate(tenants, Tenants.ADMIN_KEY_PREFIX, true);
    }

    @Override
    public void process(Exchange exchange) {
        String key = bearerKey(exchange.getMessage().getHeader("Authorization", String.class));
        if (key == null) {
            ResponseHeaders.set(exchange, "WWW-Authenticate", "Bearer");
            throw new UnauthorizedException("Send the " + (admin ? "admin" : "assistant") + " key as 'Authorization:"
                    + " Bearer " + keyPrefix + "…'");
        }
        TenantsFile.Organization organization = admin ? tenants.organizationForAdminKey(key)
                : tenants.organizationForKey(key);
        if (organization == null) {
            ResponseHeaders.set(exchange, "WWW-Authenticate", "Bearer error=\"invalid_token\"");
            throw new UnauthorizedException(admin ? "The admin key is not valid (a public key is not an admin key)"
                    : "The assistant key is not valid");
        }
        Tenant tenant = tenantOf(tenants, exchange);
        if (!tenant.organizationId().equals(organization.id())) {
            throw new ForbiddenException("This assistant key may not be used for domain '" + tenant.domainId() + "'");
        }
        exchange.setProperty(StepContract.TENANT, tenant);
        exchange.setProperty(StepContract.KEY_ID, Secrets.sha256(key));
    }

    /** The tenant of the request's {@code {domain}}: 400 for a malformed id, 404 for no such domain. */
    static Tenant tenantOf(Tenants tenants, Exchange exchange) {
        String domainId = exchange.getMessage().getHeader("domain", String.class);
        if (!Tenants.isDomainId(domainId)) {
            throw new InvalidDomainException();
        }
        Tenant tenant = tenants.tenant(domainId);
        if (tenant == null) {
            throw new DomainNotFoundException(domainId);
        }
        return tenant;
    }

    private String bearerKey(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        String key = authorization.substring(BEARER.length()).trim();
        return key.startsWith(keyPrefix) && key.length() > keyPrefix.length() ? key : null;
    }
}
