package dev.docsassistant.model;

import java.util.ArrayList;
import java.util.List;

import dev.docsassistant.search.SearchHit;

/**
 * A page the answer cites. The stream's sources are exactly the excerpts the model was given: those of the prompt
 * ({@link ModelReply#sources()}), then those of each search the model made itself
 * ({@link ModelEvent.SearchAnswered#hits()}); a page given twice is cited twice.
 */
public record Source(String id, String url, String title) {

    /** The sources of these hits, given to the model in this order, numbered from {@code first}. */
    public static List<Source> numbered(List<SearchHit> hits, int first) {
        List<Source> sources = new ArrayList<>();
        for (SearchHit hit : hits) {
            sources.add(new Source("src-" + (first + sources.size()), hit.url(), hit.title()));
        }
        return sources;
    }
}
