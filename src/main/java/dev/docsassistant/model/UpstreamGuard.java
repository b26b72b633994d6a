package dev.docsassistant.model;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.docsassistant.observe.AssistantMetrics;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;

/**
 * Admission to a model server: this instance's cap on concurrent model calls (over it: 503 with
 * {@code Retry-After} rather than a queue), and a circuit breaker per upstream that opens when too many recent
 * answers failed, so a dead server is not waited on for every request.
 * <p>
 * resilience4j directly rather than camel-resilience4j's {@code circuitBreaker} EIP: an answer's outcome is known
 * only when its stream ends, long after the route step that made the call returned (a stream that breaks midway
 * must count as a failure), and the EIP would also send every failure to its fallback, while only an open circuit
 * should fall back; failures of a closed circuit are answered 502/504.
 */
public class UpstreamGuard {

    private final Semaphore calls;
    /** The metrics' provider tag: this guard serves the openai provider. */
    static final String PROVIDER = "openai";

    private final CircuitBreakerRegistry breakers;
    private final AssistantMetrics metrics;
    private final long openSeconds;

    /**
     * @param maxConcurrent   model calls this instance makes at once
     * @param failureRate     percentage of failed answers, among the last {@code minimumCalls}, that opens the
     *                        circuit
     * @param openSeconds     how long an open circuit refuses calls before letting one through to test the server
     */
    public UpstreamGuard(int maxConcurrent, int failureRate, int minimumCalls, long openSeconds,
            AssistantMetrics metrics) {
        this.calls = new Semaphore(maxConcurrent);
        this.openSeconds = openSeconds;
        this.metrics = metrics;
        this.breakers = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .failureRateThreshold((float) failureRate)
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(minimumCalls)
                .minimumNumberOfCalls(minimumCalls)
                .waitDurationInOpenState(Duration.ofSeconds(openSeconds))
                .permittedNumberOfCallsInHalfOpenState(1)
                .build());
        breakers.getEventPublisher().onEntryAdded(added -> added.getAddedEntry().getEventPublisher()
                .onStateTransition(event -> metrics.circuitState(PROVIDER,
                        circuitState(event.getStateTransition().getToState()))));
    }

    private static AssistantMetrics.CircuitState circuitState(CircuitBreaker.State state) {
        return switch (state) {
            case OPEN, FORCED_OPEN -> AssistantMetrics.CircuitState.OPEN;
            case HALF_OPEN -> AssistantMetrics.CircuitState.HALF_OPEN;
            default -> AssistantMetrics.CircuitState.CLOSED;
        };
    }

    /** A slot for one answer from {@code upstream}, or why there is none. */
    public Permit enter(String upstream) {
        CircuitBreaker breaker = breakers.circuitBreaker(upstream);
        if (!breaker.tryAcquirePermission()) {
            throw new CircuitOpenException(openSeconds);
        }
        if (!calls.tryAcquire()) {
            breaker.releasePermission();
            throw new ModelBusyException("model_busy",
                    "The assistant is answering as many questions as it can; please retry shortly", 1);
        }
        return new Permit(breaker);
    }

    /** The upstream's circuit is open: recent answers failed. */
    public static final class CircuitOpenException extends ModelBusyException {

        CircuitOpenException(long retryAfterSeconds) {
            super("model_unavailable", "The language model is unavailable; please retry later", retryAfterSeconds);
        }
    }

    /** One answer's slot; the first of its outcomes counts and frees the slot. */
    public final class Permit {

        private final CircuitBreaker breaker;
        private final long start = System.nanoTime();
        private final AtomicBoolean done = new AtomicBoolean();

        private Permit(CircuitBreaker breaker) {
            this.breaker = breaker;
        }

        /** The answer streamed to its end. */
        public void succeeded() {
            if (done.compareAndSet(false, true)) {
                breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                calls.release();
            }
        }

        /** The answer failed; only failures that say the server is unwell count against its circuit. */
        public void failed(Throwable failure) {
            if (done.compareAndSet(false, true)) {
                boolean upstreamFault = failure instanceof ModelTimeoutException
                        || failure instanceof ModelFailedException failed && failed.upstreamFault();
                if (upstreamFault) {
                    metrics.upstreamError(PROVIDER, failure instanceof ModelTimeoutException ? "timeout" : "failed");
                    breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, failure);
                } else {
                    breaker.releasePermission();
                }
                calls.release();
            }
        }

        /** The answer was abandoned (the client left): no verdict on the server. */
        public void release() {
            if (done.compareAndSet(false, true)) {
                breaker.releasePermission();
                calls.release();
            }
        }
    }
}
