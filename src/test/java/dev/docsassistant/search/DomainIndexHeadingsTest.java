package dev.docsassistant.search;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Which section of a page comes first when its headings, not its prose, name what is asked, on a site written for
 * it: a section's own heading against a parent heading its siblings share, and the troubleshooting section for a
 * question telling a symptom. Words only, so nothing but the words decide.
 */
class DomainIndexHeadingsTest {

    private static DomainIndex index;

    @BeforeAll
    static void build(@TempDir Path site) throws Exception {
        TestSites.page(site, "preview.mdx", "Local preview", """
                ## Ports

                ### Limits

                Change the port range, change the port limits and change the port count with flags.

                ## Options

                ### Port

                Pass a flag to change it.
                """);
        TestSites.page(site, "widget.mdx", "Chat widget", """
                ## Placement

                The chat widget shows up in the corner of every page, in Firefox, Chrome and Safari alike: the widget
                shows up once the page loads.

                ## Troubleshooting

                Ad blockers and strict tracking protection hide it; allow the docs' domain.
                """);
        index = DomainIndex.build(DocsFolder.read(site.toString()), "https://docs.example.com", false, Map.of());
    }

    /**
     * "Limits" repeats the question's words under the parent heading "Ports", which names "port" for it as much as
     * the trail "Options › Port" does for the other; only the section whose own heading names it answers.
     */
    @Test
    void aSectionsOwnHeadingNamingTheQuestionCountsMoreThanItsParents() {
        assertEquals("/preview#port", TestSites.first(index, "How do I change the port?"));
    }

    /** Placement holds the question's words; a reader with a problem looks under "Troubleshooting" first. */
    @Test
    void aQuestionTellingASymptomFindsTheTroubleshootingSection() {
        assertEquals("/widget#troubleshooting", TestSites.first(index, "The chat widget never shows up in Firefox"));
        assertEquals("/widget#placement", TestSites.first(index, "Where does the chat widget show up in Firefox?"));
    }
}
