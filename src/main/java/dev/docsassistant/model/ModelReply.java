package dev.docsassistant.model;

import java.util.List;

/**
 * An answer being produced. The stream step pulls its events as they become available and writes each one to the
 * client at once; closing the reply stops the model (the client went away).
 */
public interface ModelReply extends AutoCloseable {

    /** The pages the answer cites. */
    List<Source> sources();

    /**
     * The next event, waiting for it if need be; null once the answer is complete. Every step ends with a
     * {@link ModelEvent.StepEnd}.
     */
    ModelEvent next() throws Exception;

    /**
     * Whether {@link #next()} would return without waiting for the model (its next event is already read or
     * computed): the stream step then sends the events that are ready together, as one write. False when unsure.
     */
    default boolean ready() {
        return false;
    }

    /** Tokens spent over all steps; final once {@link #next()} has returned null. */
    Usage usage();

    /**
     * What of {@link #usage()} a paid model spent, counted against the organization's token budget: none for a
     * model that bills nothing (the extractive one estimates its usage only to report it).
     */
    default Usage billed() {
        return Usage.NONE;
    }

    /**
     * Stops the model and frees what it holds. Called once the stream is over, and also from another thread as soon
     * as the client goes away, possibly while {@link #next()} waits: it must be idempotent and make a waiting
     * {@code next()} return or throw promptly.
     */
    @Override
    void close();
}
