package dev.docsassistant.config;

import java.util.List;

/** The tenants file ({@code assistant.tenants-file}): organizations, their keys and their documentation domains. */
public record TenantsFile(List<Organization> organizations) {

    /**
     * @param monthlyRequestsPerKey requests each of its keys may make per 30 days; null for
     *                              {@code assistant.ratelimit.key-per-month}, 0 for no quota
     * @param tokensPerHour         model tokens (prompt and completion) per clock hour; null for
     *                              {@code assistant.ratelimit.org-tokens-per-hour}, 0 for no budget
     * @param tokensPerDay          the same per UTC day; null for {@code assistant.ratelimit.org-tokens-per-day}
     * @param maxConcurrentStreams  requests (streams) open at once across its domains; null for
     *                              {@code assistant.ratelimit.org-max-streams}, 0 for no cap
     * @param adminKeys             secret keys of the docs team for the admin endpoints ({@code /v1/admin/…}),
     *                              plain or {@code sha256:}; none for no admin access. Never the public keys.
     * @param recordsRetentionDays  days its rows are kept in the store of record; null for
     *                              {@code assistant.records.retention-days}
     * @param requireThreadKey      whether a thread is continued only with its {@code threadKey}, as Mintlify's
     *                              embed guide has it; null for {@code assistant.threads.require-key}
     */
    public record Organization(String id, List<String> apiKeys, Long rateLimitPerHour, List<Domain> domains,
            Long monthlyRequestsPerKey, Long tokensPerHour, Long tokensPerDay, Long maxConcurrentStreams,
            List<String> adminKeys, Integer recordsRetentionDays, Boolean requireThreadKey) {

        public Organization(String id, List<String> apiKeys, Long rateLimitPerHour, List<Domain> domains) {
            this(id, apiKeys, rateLimitPerHour, domains, null, null, null, null, null, null, null);
        }
    }

    /**
     * A documentation site served at {@code /v1/assistant/{id}/message}.
     *
     * @param docs    where the docs live ({@link DocsSource}): a folder with {@code docs.json} (or {@code mint.json})
     *                and the pages, {@code classpath:…}, a Git repository or a published site
     * @param siteUrl base of the page URLs handed to the widget; empty for site-relative URLs
     * @param model   optional: the language model for this domain instead of {@code assistant.model.name}
     * @param systemPrompt optional: a system prompt file for this domain instead of
     *                {@code assistant.model.system-prompt} (relative to the tenants file, or {@code classpath:…})
     * @param allowedOrigins origins the widget may call from ({@link AllowedOrigins}); empty for any
     * @param mcp     {@code false} switches its MCP server for agents off; null or true leaves it on
     */
    public record Domain(String id, DocsSource docs, String siteUrl, String model, String systemPrompt,
            List<String> allowedOrigins, Boolean mcp) {

        public Domain(String id, DocsSource docs, String siteUrl, String model, String systemPrompt,
                List<String> allowedOrigins) {
            this(id, docs, siteUrl, model, systemPrompt, allowedOrigins, null);
        }

        public Domain(String id, String docs, String siteUrl) {
            this(id, DocsSource.folder(docs), siteUrl, null, null, List.of());
        }

        /** Whether agents may use its MCP server ({@code /sites/{id}/mcp}): unless {@code mcp: false}. */
        public boolean mcpEnabled() {
            return !Boolean.FALSE.equals(mcp);
        }
    }
}
