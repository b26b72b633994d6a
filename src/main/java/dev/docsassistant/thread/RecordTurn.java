package dev.docsassistant.thread;

import java.time.Instant;
import java.util.List;

import dev.docsassistant.ground.StepContract;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.StreamedAnswer;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.search.SearchResult;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Keeps each turn in its thread in two writes, so a crash loses at most an answer, never a question: the route's
 * recordQuestion step adds the question with no answer yet before the model is called, and the stream step replaces
 * it with the question and the answer the client received (same {@code messageId}) before the stream's last bytes,
 * so a follow-up sent the instant an answer ends finds the turn, and for an answer cut short too.
 */
public class RecordTurn {

    private final ThreadStore threads;

    public RecordTurn(ThreadStore threads) {
        this.threads = threads;
    }

    /** assistant-message.yaml's step before the model: {@link #recordQuestion}, a Processor (no reflection). */
    public static Processor questionStep(RecordTurn turns) {
        return turns::recordQuestion;
    }

    /**
     * The question as it arrived: an incomplete turn with an empty answer, until the answer takes its place. Not a
     * gap ({@code answered}): whether the docs answer it is known only once the answer is.
     */
    public void recordQuestion(Exchange exchange) {
        ThreadRef thread = exchange.getProperty(StepContract.THREAD, ThreadRef.class);
        ChatRequest request = exchange.getProperty(StepContract.REQUEST, ChatRequest.class);
        threads.ask(thread.id(), new ChatThread.Turn(Instant.now(), thread.messageId(), request.question(), "",
                List.of(), false, true, null));
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
