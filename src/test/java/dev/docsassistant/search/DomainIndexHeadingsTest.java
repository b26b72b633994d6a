package dev.docsassistant.search;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Which section of a page comes first when its headings, not its prose, name what is asked, on a site written for
 * it: a section's own heading against a parent heading its siblings share, the troubleshooting section for a
 * question telling a symptom, the heading naming what a "what" question asks for, and a page's opening when no
 * heading names the question. Words only, so nothing but the words decide.
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
        TestSites.page(site, "search-server.mdx", "Search server", """
                ## Tools

                Three are provided: one finds, one reads, one reports.

                ## Search parameters

                Desktop applications like Claude and Cursor pass parameters to the tools the search server exposes.
                """);
        TestSites.page(site, "diagrams.mdx", "Diagrams", """
                Draw flowcharts and sequence diagrams as text on any page, rendered in the reader's browser when the
                page loads, so they stay as current as the docs around them.

                ## Layout

                Draw a flowchart left to right: flowcharts, sequence diagrams and flowcharts of flowcharts alike.

                ## Controls

                Zoom buttons show on every diagram.
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

    /**
     * "Search parameters" holds all the question's words and its heading names "search"; "Tools" names only what is
     * asked for, the word after "what", which a reader scans the headings for.
     */
    @Test
    void aWhatQuestionFindsTheSectionWhoseOwnHeadingNamesWhatItAsksFor() {
        assertEquals("/search-server#tools", TestSites.first(index,
                "What tools does the search server expose to desktop applications like Claude and Cursor?"));
    }

    /**
     * No heading names a flowchart: the page answers as a whole, and its opening says what it is for, though
     * "Layout" repeats the question's words more. A question a heading names still gets that section.
     */
    @Test
    void aPageNoHeadingOfWhichNamesTheQuestionAnswersWithItsOpening() {
        assertEquals("/diagrams", TestSites.first(index, "How do I draw a flowchart or sequence diagram?"));
        assertEquals("/diagrams#layout", TestSites.first(index, "How do I change the layout of a flowchart?"));
    }

    /** Placement holds the question's words; a reader with a problem looks under "Troubleshooting" first. */
    @Test
    void aQuestionTellingASymptomFindsTheTroubleshootingSection() {
        assertEquals("/widget#troubleshooting", TestSites.first(index, "The chat widget never shows up in Firefox"));
        assertEquals("/widget#placement", TestSites.first(index, "Where does the chat widget show up in Firefox?"));
    }
}
