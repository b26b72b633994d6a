package dev.docsassistant.model;

import dev.docsassistant.ground.ApiException;

/**
 * The model server could not answer: unreachable, an error status after the retries, or a broken stream. Answered
 * 502 before the first byte (errors.yaml), a {@code 3:} part after it.
 */
public class ModelFailedException extends ApiException {

    private final boolean upstreamFault;

    /**
     * @param upstreamFault whether this says something about the server's health (connection failures, 429, 5xx,
     *                      broken streams), which counts against its circuit breaker, rather than about this
     *                      request (another 4xx)
     */
    public ModelFailedException(String detail, boolean upstreamFault) {
        super("model_failed", detail, null);
        this.upstreamFault = upstreamFault;
    }

    public boolean upstreamFault() {
        return upstreamFault;
    }
}
