package dev.docsassistant.bench;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.docsassistant.model.AnswerModel;
import dev.docsassistant.model.ModelEvent;
import dev.docsassistant.model.ModelReply;
import dev.docsassistant.model.ModelRequest;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.Usage;

/**
 * A model that answers {@code tokens} tokens {@code delayMs} apart, waiting in {@code next()} the way a
 * provider waits on its upstream: it measures what the service pays to hold a slow stream open, with no upstream
 * socket. bench/routes/paced-model.yaml names it {@code pacedModel}.
 */
public class PacedModel implements AnswerModel {

    private final int tokens;
    private final long delayMs;
    private final long firstDelayMs;

    public PacedModel(int tokens, long delayMs, long firstDelayMs) {
        this.tokens = tokens;
        this.delayMs = delayMs;
        this.firstDelayMs = firstDelayMs;
    }

    @Override
    public ModelReply answer(ModelRequest request) {
        return new ModelReply() {
            private final CountDownLatch closed = new CountDownLatch(1);
            private int sent;

            @Override
            public List<Source> sources() {
                return List.of();
            }

            @Override
            public ModelEvent next() throws InterruptedException {
                if (sent == tokens || closed.await(sent == 0 ? firstDelayMs : delayMs, TimeUnit.MILLISECONDS)) {
                    return null;
                }
                return new ModelEvent.Text((sent == 0 ? "Token" : " token") + sent++);
            }

            @Override
            public Usage usage() {
                return new Usage(512, sent);
            }

            @Override
            public void close() {
                closed.countDown();
            }
        };
    }
}
