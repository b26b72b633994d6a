package dev.docsassistant.search;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The search cache's key: the same for equal queries, different whenever anything the result depends on differs. */
class SearchQueryTest {

    private static SearchQuery query(String question, String context, String language, List<String> groups,
                                     int pageSize, double scoreThreshold) {
        return new SearchQuery(question, context, "", language, null, groups, "/quickstart", pageSize, scoreThreshold);
    }

    @Test
    void equalQueriesShareAKeyWhateverTheOrderOfTheirGroups() {
        assertEquals(query("port?", "", "en", List.of("b", "a"), 5, 0).key(),
                query("port?", "", "en", List.of("a", "b", "a"), 5, 0).key());
    }

    @Test
    void noTextAReaderSendsCanPassForAnotherField() {
        assertNotEquals(query("a\u0000b", "", null, List.of(), 5, 0).key(),
                query("a", "b", null, List.of(), 5, 0).key());
        assertNotEquals(query("a", "2:bc", null, List.of(), 5, 0).key(),
                query("a2:b", "c", null, List.of(), 5, 0).key());
        assertNotEquals(query("q", "", null, List.of("a, b"), 5, 0).key(),
                query("q", "", null, List.of("a", "b"), 5, 0).key());
        assertNotEquals(query("q", "", null, List.of(), 5, 0).key(), query("q", "", "-", List.of(), 5, 0).key());
        assertNotEquals(query("q", "", null, List.of(), 5, 0).key(), query("q", "", "", List.of(), 5, 0).key());
    }

    @Test
    void theNumbersCountToo() {
        assertNotEquals(query("q", "", "en", List.of(), 5, 0).key(), query("q", "", "en", List.of(), 6, 0).key());
        assertNotEquals(query("q", "", "en", List.of(), 5, 0).key(), query("q", "", "en", List.of(), 5, 0.5).key());
    }
}
