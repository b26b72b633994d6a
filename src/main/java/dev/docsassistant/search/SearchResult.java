package dev.docsassistant.search;

import java.util.List;

/** What the search step hands the model: the query it ran and the pages it found, best first. */
public record SearchResult(SearchQuery query, List<SearchHit> hits) {
}
