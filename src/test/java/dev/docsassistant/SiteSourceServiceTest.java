package dev.docsassistant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Domains served from published sites on loopback ({@link DocsSiteServer}, built from the fixture docs): one with
 * {@code llms.txt} and Markdown pages, one with a sitemap and HTML pages. Both are searched with their pages' titles
 * and sections, and answers link to the site's pages. Loopback is allowed explicitly, as an operator would.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/site-source/tenants.yaml",
        "assistant.search.semantic=false", "assistant.sources.allow-private-addresses=true",
        "assistant.sources.request-delay-ms=0", "assistant.sources.max-file-bytes=50000",
        "assistant.sources.dir=target/site-source/sources", ServiceTest.UNLIMITED_ADDRESS_RATE})
class SiteSourceServiceTest extends ServiceTest {

    private static final DocsSiteServer LLMS;
    private static final DocsSiteServer SITEMAP;

    static {
        try {
            LLMS = new DocsSiteServer(true);
            SITEMAP = new DocsSiteServer(false);
            Path tenants = Path.of("target/site-source/tenants.yaml");
            Files.createDirectories(tenants.getParent());
            Files.writeString(tenants, """
                    organizations:
                      - id: acme
                        apiKeys: [%s]
                        domains:
                          - id: llms
                            docs: {site: "%s"}
                            siteUrl: "%s"
                          - id: sitemap
                            docs: {site: "%s"}
                            siteUrl: "%s"
                    """.formatted(ACME_KEY, LLMS.url("/"), LLMS.url(""), SITEMAP.url("/"), SITEMAP.url("")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
