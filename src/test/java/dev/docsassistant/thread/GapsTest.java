package dev.docsassistant.thread;

import java.util.Set;

import dev.docsassistant.model.ExtractiveModel;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Both ways a turn is a gap, and what makes two questions one gap. */
class GapsTest {

    @Test
    void aTurnIsUnansweredWhenTheSearchFoundNothing() {
        assertFalse(Gaps.answered(false, "Set camel.server.port."), "no page found, whatever the model said");
        assertTrue(Gaps.answered(true, "Set camel.server.port."));
    }

    @Test
    void aTurnIsUnansweredWhenTheAnswerSaysTheDocsDoNotCoverIt() {
        assertFalse(Gaps.answered(true, ExtractiveModel.NOT_FOUND + " Try other words."), "the extractive model's");
        assertFalse(Gaps.answered(true, "Sorry, the Documentation does not cover rotating keys. See [SSO](/sso)."));
        assertFalse(Gaps.answered(true, "That is not covered in the documentation."));
        assertTrue(Gaps.answered(true, "The documentation covers this in [Keys](/keys)."));
    }

    @Test
    void questionsAreOneGapWhenHalfTheirTermsAreShared() {
        assertEquals(1.0, AdminThreads.jaccard(Set.of("rotat", "key"), Set.of("key", "rotat")));
        assertEquals(0.5, AdminThreads.jaccard(Set.of("rotat", "key"), Set.of("rotat", "key", "saml", "sign")));
        assertTrue(AdminThreads.jaccard(Set.of("port"), Set.of("rotat", "key")) < AdminThreads.SIMILAR);
    }
}
