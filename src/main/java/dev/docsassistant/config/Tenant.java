package dev.docsassistant.config;

/** The organization a request authenticated as and the domain it asks about. */
public record Tenant(TenantsFile.Organization organization, TenantsFile.Domain domain,
        AllowedOrigins allowedOrigins) {

    /** @throws IllegalArgumentException if the domain's {@code allowedOrigins} are not origins or patterns */
    public Tenant(TenantsFile.Organization organization, TenantsFile.Domain domain) {
        this(organization, domain, AllowedOrigins.of(domain.allowedOrigins()));
    }

    public String organizationId() {
        return organization.id();
    }

    public String domainId() {
        return domain.id();
    }
}
