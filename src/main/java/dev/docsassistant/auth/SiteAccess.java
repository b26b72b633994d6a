package dev.docsassistant.auth;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.ground.StepContract;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The key step of what a docs site serves agents under {@code /sites/{domain}/} (llms.txt, pages as Markdown, the MCP
 * server): no key, as on Mintlify, since all of it is the domain's public pages. It finds the {@link Tenant} of the
 * {@code {domain}} and, for the MCP server ({@link #mcp}), refuses a domain whose tenants file switched it off. The
 * organization's quotas then count the domain's keyless requests under one key of their own, {@code site:<domain>}.
 */
public class SiteAccess implements Processor {

    private final Tenants tenants;
    private final boolean mcp;

    public SiteAccess(Tenants tenants) {
        this(tenants, false);
    }

    private SiteAccess(Tenants tenants, boolean mcp) {
        this.tenants = tenants;
        this.mcp = mcp;
    }

    /** The MCP server's step ({@code ref: siteMcpAccess}): a domain with {@code mcp: false} is refused (403). */
    public static SiteAccess mcp(Tenants tenants) {
        return new SiteAccess(tenants, true);
    }

    @Override
    public void process(Exchange exchange) {
        Tenant tenant = Authenticate.tenantOf(tenants, exchange);
        if (mcp && !tenant.domain().mcpEnabled()) {
            throw new ForbiddenException("The MCP server of domain '" + tenant.domainId() + "' is switched off");
        }
        exchange.setProperty(StepContract.TENANT, tenant);
        exchange.setProperty(StepContract.KEY_ID, "site:" + tenant.domainId());
    }
}
