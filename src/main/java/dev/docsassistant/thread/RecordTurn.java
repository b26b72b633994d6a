package dev.docsassistant.thread;

import java.time.Instant;

import dev.docsassistant.model.Source;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.stream.StreamedAnswer;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** Adds the question and the answer the client received to the thread, once the stream has ended. */
public class RecordTurn implements Processor {

    private final ThreadStore threads;

    public RecordTurn(ThreadStore threads) {
        this.threads = threads;
    }

    @Override
    public void process(Exchange exchange) {
        ThreadRef thread = exchange.getProperty(ThreadRef.PROPERTY, ThreadRef.class);
        ChatRequest request = exchange.getProperty(ChatRequest.PROPERTY, ChatRequest.class);
        StreamedAnswer answer = exchange.getProperty(StreamedAnswer.PROPERTY, StreamedAnswer.class);
        threads.append(thread.id(), new ChatThread.Turn(Instant.now(), request.question(), answer.text(),
                answer.sources().stream().map(Source::url).toList()));
    }
}
