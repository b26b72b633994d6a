package dev.docsassistant.thread;

import java.time.Instant;

import dev.docsassistant.ground.StepContract;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.StreamedAnswer;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.search.SearchResult;
import org.apache.camel.Exchange;

/**
 * Adds the question and the answer the client received to the thread. The stream step calls it before the stream's
 * last bytes, so a follow-up sent the instant an answer ends finds the turn, and for an answer cut short too.
 */
public class RecordTurn {

    private final ThreadStore threads;

    public RecordTurn(ThreadStore threads) {
        this.threads = threads;
    }

    public void record(Exchange exchange, StreamedAnswer answer) {
        ThreadRef thread = exchange.getProperty(StepContract.THREAD, ThreadRef.class);
        ChatRequest request = exchange.getProperty(StepContract.REQUEST, ChatRequest.class);
        SearchResult search = exchange.getProperty(StepContract.SEARCH, SearchResult.class);
        threads.append(thread.id(), new ChatThread.Turn(Instant.now(), answer.messageId(), request.question(),
                answer.text(), answer.sources().stream().map(Source::url).toList(), answer.complete(),
                Gaps.answered(!search.hits().isEmpty(), answer.text()), null));
    }
}
