package dev.docsassistant.search;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A page scores its best passage plus half its second best, and names its best passage's section. */
class PageScoresTest {

    @Test
    void aPageCloseToTheQuestionInTwoPlacesOutranksOneCloseSentence() {
        PageScores scores = new PageScores();
        scores.add(1, 0, 0.62); // a long general page sharing one sentence with the question
        scores.add(1, 3, 0.20);
        scores.add(2, 5, 0.58); // the page about it, close in two sections
        scores.add(2, 1, 0.60);

        List<SemanticIndex.PageMatch> best = scores.best(10);

        assertEquals(List.of(2, 1), best.stream().map(SemanticIndex.PageMatch::page).toList());
        assertEquals(1, best.get(0).section(), "the best passage's section, though it came second");
        assertEquals(0.60 + 0.5 * 0.58, best.get(0).similarity(), 1e-9);
        assertEquals(0.62 + 0.5 * 0.20, best.get(1).similarity(), 1e-9);
    }

    @Test
    void aMuchCloserPassageStillWinsAndAOnePassagePageScoresItsSimilarity() {
        PageScores scores = new PageScores();
        scores.add(7, 2, 0.50);
        scores.add(7, 4, 0.50);
        scores.add(8, 0, 0.90);
        scores.add(9, 0, 0.30);

        List<SemanticIndex.PageMatch> best = scores.best(2);

        assertEquals(List.of(8, 7), best.stream().map(SemanticIndex.PageMatch::page).toList(), "limited to two");
        assertEquals(0.90, best.get(0).similarity(), 1e-9);
        assertEquals(0.75, best.get(1).similarity(), 1e-9);
    }
}
