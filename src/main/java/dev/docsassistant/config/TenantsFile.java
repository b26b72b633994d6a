package dev.docsassistant.config;

import java.util.List;

/** The tenants file ({@code assistant.tenants-file}): organizations, their keys and their documentation domains. */
public record TenantsFile(List<Organization> organizations) {

    public record Organization(String id, List<String> apiKeys, Long rateLimitPerHour, List<Domain> domains) {
    }

    /**
     * A documentation site served at {@code /v1/assistant/{id}/message}.
     *
     * @param docs    folder with {@code docs.json} (or {@code mint.json}) and the pages, or {@code classpath:…}
     * @param siteUrl base of the page URLs handed to the widget; empty for site-relative URLs
     */
    public record Domain(String id, String docs, String siteUrl) {
    }
}
