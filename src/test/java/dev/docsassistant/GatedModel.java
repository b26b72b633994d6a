package dev.docsassistant;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.docsassistant.model.AnswerModel;
import dev.docsassistant.model.ModelEvent;
import dev.docsassistant.model.ModelReply;
import dev.docsassistant.model.ModelRequest;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.Usage;

/**
 * A model the test controls: for a question containing "wait" it sends one delta, then holds the rest of the
 * answer until {@link #release()}, the way a real model pauses between tokens. Other questions are answered at once.
 */
public class GatedModel implements AnswerModel {

    private volatile CountDownLatch gate = new CountDownLatch(1);
    final AtomicInteger closed = new AtomicInteger();
    final AtomicInteger deltasAfterGate = new AtomicInteger();

    /** Closes the gate again for the next test. */
    void hold() {
        gate = new CountDownLatch(1);
        deltasAfterGate.set(0);
    }

    void release() {
        gate.countDown();
    }

    @Override
    public ModelReply answer(ModelRequest request) {
        CountDownLatch gate = request.chat().question().contains("wait") ? this.gate : new CountDownLatch(0);
        return new ModelReply() {
            private final CountDownLatch cancelled = new CountDownLatch(1);
            private int step;

            @Override
            public List<Source> sources() {
                return List.of();
            }

            @Override
            public ModelEvent next() throws InterruptedException {
                switch (step++) {
                    case 0:
                        return new ModelEvent.Text("first ");
                    case 1:
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        while (!gate.await(10, TimeUnit.MILLISECONDS)) {
                            if (cancelled.getCount() == 0 || System.nanoTime() > deadline) {
                                throw new IllegalStateException("cancelled while waiting for the gate");
                            }
                        }
                        deltasAfterGate.incrementAndGet();
                        return new ModelEvent.Text("second");
                    default:
                        return null;
                }
            }

            @Override
            public Usage usage() {
                return new Usage(1, 2);
            }

            @Override
            public void close() {
                if (cancelled.getCount() > 0) {
                    cancelled.countDown();
                    closed.incrementAndGet();
                }
            }
        };
    }
}
