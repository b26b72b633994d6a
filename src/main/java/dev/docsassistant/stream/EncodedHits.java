package dev.docsassistant.stream;

import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import dev.docsassistant.ground.Caches;
import dev.docsassistant.search.SearchHit;

/**
 * The search tool's result as a JSON array, encoded once per search result: a cached result goes out with every
 * answer to the same question, and its pages' text is the bulk of what an answer encodes. Keyed by the hits' list
 * itself (weak keys compare by identity), so an entry lives no longer than the cached result it encodes; only the
 * most asked questions' encodings are kept, up to {@link #KEPT_BYTES}, since a question asked once gains nothing and
 * each costs as much memory as its search result (up to ~20 KB).
 */
final class EncodedHits {

    private static final long KEPT_BYTES = 8L << 20;

    private final ObjectMapper json;
    private final Cache<List<SearchHit>, String> encoded = Caches.<List<SearchHit>, String>weighed(KEPT_BYTES,
            (hits, encoding) -> Caches.bytes(encoding)).weakKeys().build();

    EncodedHits(ObjectMapper json) {
        this.json = json;
    }

    String of(List<SearchHit> hits) {
        return encoded.get(hits, this::encode);
    }

    /** {@code value} as a JSON string, quotes included: a tool call's id, which a model may have chosen. */
    static String quoted(String value) {
        StringBuilder quoted = new StringBuilder(value.length() + 2).append('"');
        JsonStringEncoder.getInstance().quoteAsString(value, quoted);
        return quoted.append('"').toString();
    }

    private String encode(List<SearchHit> hits) {
        try {
            return json.writeValueAsString(AnswerEncoder.SearchOutput.of(hits));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot encode the search result", e);
        }
    }
}
