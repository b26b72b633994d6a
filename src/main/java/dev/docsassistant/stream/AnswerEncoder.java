package dev.docsassistant.stream;

import java.util.List;
import java.util.Map;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.Usage;
import dev.docsassistant.search.SearchHit;

/**
 * One client protocol's wire format for the answer. The stream step emits the same events in the same order for
 * every protocol; each method returns what to write for its event, or an empty string when the protocol has no
 * such event.
 */
public interface AnswerEncoder {

    /** The response headers the protocol requires (content type, protocol marker, no buffering). */
    Map<String, String> headers(Tenant tenant);

    /** The message begins; {@code threadId} is the conversation it belongs to. */
    String start(String messageId, String threadId);

    String startStep(String stepId);

    String searchCall(String toolCallId, String query);

    String searchResult(String toolCallId, List<SearchHit> hits);

    String finishStep(String finishReason, Usage usage);

    String source(Source source);

    String textStart(String textId);

    String textDelta(String textId, String delta);

    String textEnd(String textId);

    /** Something the reader should know about how the answer was made (say, the model was unavailable). */
    String notice(String code, String message);

    /** The answer is complete; {@code finishReason} is the last step's. */
    String finish(String finishReason, Usage usage, String threadId);

    /** The answer failed after the first byte: the status line is sent, so the stream says so. */
    String error(String message);

    /** Written after {@link #finish} or {@link #error}, last. */
    String end();

    /** What to write while the model is silent so idle proxies keep the connection, or null if nothing may be. */
    String keepAlive();

    /** One page of the {@code search} tool's result, the same in every protocol. */
    record SearchOutput(String path, String url, String content, Map<String, String> metadata) {

        static List<SearchOutput> of(List<SearchHit> hits) {
            return hits.stream()
                    .map(hit -> new SearchOutput(hit.path(), hit.url(), hit.content(), Map.of("title", hit.title())))
                    .toList();
        }
    }
}
