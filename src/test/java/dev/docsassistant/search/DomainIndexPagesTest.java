package dev.docsassistant.search;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Which page comes first, on a site written for it: a long page whose many sections each hold most of the question's
 * words, against the page whose one section holds them all; a page whose heading names the question's rare word,
 * against a page whose prose repeats the question's words. Words only, so nothing but the words decide.
 */
class DomainIndexPagesTest {

    private static DomainIndex index;

    @BeforeAll
    static void build(@TempDir Path site) throws Exception {
        TestSites.page(site, "billing.mdx", "Billing", """
                ## Adjustments

                Each refund updates the invoice, the quota and the ledger.
                """);
        StringBuilder changelog = new StringBuilder();
        for (String month : List.of("March", "April", "May", "June", "July")) {
            changelog.append("## ").append(month)
                    .append("\n\nEach refund updates the invoice and the quota today.\n\n");
        }
        TestSites.page(site, "changelog.mdx", "Changelog", changelog.toString());
        TestSites.page(site, "integrations/provisioning.mdx", "Provisioning", """
                ## SCIM

                Your identity provider creates and removes people as they join and leave.
                """);
        TestSites.page(site, "integrations/login.mdx", "Single sign-on", """
                Okta signs your team's accounts in. Okta needs no SCIM for your team's accounts to sign in with Okta.
                """);
        for (String topic : List.of("pricing", "analytics", "languages", "themes", "search")) {
            TestSites.page(site, topic + ".mdx", topic,
                    "How " + topic + " works: the " + topic + " ledger for your team's accounts.");
        }
        index = DomainIndex.build(DocsFolder.read(site.toString()), "https://docs.example.com", false, Map.of());
    }

    /**
     * Each month of the changelog holds three of the question's four words, the billing page's one section all four:
     * summed over its sections (its best plus 0.3 and 0.1 of the next), the changelog came first.
     */
    @Test
    void aPageIsAsGoodAsItsBestSectionNotItsCountOfMentions() {
        assertEquals("/billing#adjustments",
                TestSites.first(index, "Does a refund change the invoice quota and the ledger?"));
    }

    /** The sign-on page's prose holds both words, more often; the provisioning page names SCIM in its heading. */
    @ParameterizedTest
    @ValueSource(strings = {"How do I set up SCIM with Okta?", "Okta SCIM"})
    void aHeadingNamingTheQuestionsRareWordLiftsItsPage(String question) {
        assertEquals("/integrations/provisioning#scim", TestSites.first(index, question));
    }
}
