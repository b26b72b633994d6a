package dev.docsassistant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Domains served from published sites on loopback ({@link DocsSiteServer}, built from the fixture docs): one with
 * {@code llms.txt} and Markdown pages, one with a sitemap and HTML pages. Both are searched with their pages' titles
 * and sections, and answers link to the site's pages. Loopback is allowed explicitly, as an operator would.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/site-source/tenants.yaml",
        "assistant.search.semantic=false", "assistant.sources.allow-private-addresses=true",
        "assistant.sources.allow-http=true",
        "assistant.sources.request-delay-ms=0", "assistant.sources.max-file-bytes=50000",
        "assistant.sources.dir=target/site-source/sources", ServiceTest.UNLIMITED_ADDRESS_RATE})
class SiteSourceServiceTest extends ServiceTest {

    private static final DocsSiteServer LLMS;
    private static final DocsSiteServer SITEMAP;
    private static final Path TENANTS = Path.of("target/site-source/tenants.yaml");

    static {
        try {
            LLMS = new DocsSiteServer(true);
            SITEMAP = new DocsSiteServer(false);
            SITEMAP.addHtmlPage("/guides/escaped", "<html><head><title>Numbat &lt;script&gt;alert(1)&lt;/script&gt;"
                    + "</title></head><body><main><h2>The &lt;b&gt;numbat&lt;/b&gt; section</h2><p>The numbat "
                    + "writes &lt;img src=x onerror=alert(1)&gt; and &lt;script&gt;alert(2)&lt;/script&gt; as text."
                    + "</p></main></body></html>");
            TenantsReloadTest.write(TENANTS, tenants(""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @param llmsOptions more of the llms domain's docs: (e.g. {@code , refresh: 1s}) */
    private static String tenants(String llmsOptions) {
        return """
                organizations:
                  - id: acme
                    apiKeys: [%s]
                    domains:
                      - id: llms
                        docs: {site: "%s"%s}
                        siteUrl: "%s"
                      - id: sitemap
                        docs: {site: "%s"}
                        siteUrl: "%s"
                """.formatted(ACME_KEY, LLMS.url("/"), llmsOptions, LLMS.url(""), SITEMAP.url("/"), SITEMAP.url(""));
    }

    /**
     * A {@code refresh:} changed in the running tenants file applies at once, not after the next sync (300 s away):
     * the site is asked again within seconds.
     */
    @Test
    void aChangedRefreshAppliesAtOnce() throws Exception {
        int before = LLMS.requested().size();
        TenantsReloadTest.write(TENANTS, tenants(", refresh: 1s"));
        try {
            TenantsReloadTest.eventually("the site synced again on its new refresh",
                    () -> LLMS.requested().size() > before);
        } finally {
            TenantsReloadTest.write(TENANTS, tenants(""));
        }
    }

    /** A site's text that shows markup (escaped in its HTML) comes out as text, never as the markup itself. */
    @Test
    void escapedTextOnASiteStaysText() throws Exception {
        HttpResponse<String> page = send(post("/v1/page/sitemap", ACME_KEY, "{\"path\": \"/guides/escaped\"}"));
        assertEquals(200, page.statusCode(), page.body());
        JsonNode hit = best("sitemap", "numbat writes as text");
        assertEquals("/guides/escaped", hit.get("path").asText(), hit.toString());
        for (String served : new String[] {JSON.readTree(page.body()).get("content").asText(),
                hit.get("content").asText()}) {
            assertFalse(Pattern.compile("(?<!\\\\)<").matcher(served).find(), "no markup: " + served);
            assertTrue(served.contains("\\<img src=x onerror=alert(1)"), "the text, escaped: " + served);
        }
    }

    @AfterAll
    void stopSites() {
        LLMS.close();
        SITEMAP.close();
    }

    private JsonNode best(String domain, String query) throws Exception {
        HttpResponse<String> response = send(post("/v1/search/" + domain, ACME_KEY,
                JSON.createObjectNode().put("query", query).toString()));
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body()).get(0);
    }

    @Test
    void bothKindsOfSiteAreSearchedWithTitlesAndSectionsAndAnswersLinkToTheSite() throws Exception {
        for (String domain : new String[] {"llms", "sitemap"}) {
            DocsSiteServer site = domain.equals("llms") ? LLMS : SITEMAP;
            JsonNode hit = best(domain, "forward a whole folder with a wildcard slug");
            assertEquals("/guides/redirects", hit.get("path").asText(), domain);
            assertEquals("Redirects", hit.get("metadata").get("title").asText(), domain);
            assertTrue(hit.get("content").asText().contains("slug"), domain + ": the Wildcards section: " + hit);
            assertTrue(hit.get("metadata").get("url").asText().startsWith(site.url("/guides/redirects")), domain);
            String answer = ask(domain, ACME_KEY, question("How do I forward a whole folder of moved pages?"))
                    .body();
            assertTrue(answer.contains(site.url("/guides/redirects")), domain + ": " + answer);
            assertEquals(404, send(post("/v1/page/" + domain, ACME_KEY, "{\"path\": \"/private/secret\"}"))
                    .statusCode(), domain + ": robots.txt's disallowed page is not served");
            assertEquals(404, send(post("/v1/page/" + domain, ACME_KEY, "{\"path\": \"/guides/huge\"}"))
                    .statusCode(), domain + ": the oversized page is refused");
        }
    }
}
