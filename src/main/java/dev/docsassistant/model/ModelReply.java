package dev.docsassistant.model;

import java.util.List;

/**
 * An answer being produced. The stream step pulls text deltas as they become available and writes each one to the
 * client at once; closing the reply stops the model (the client went away).
 */
public interface ModelReply extends AutoCloseable {

    /** The exchange property the model step sets. */
    String PROPERTY = "assistant.reply";

    /** The pages the answer cites. */
    List<Source> sources();

    /** The next piece of text, waiting for it if need be; null once the answer is complete. */
    String nextDelta() throws Exception;

    /** Tokens spent; final once {@link #nextDelta()} has returned null. */
    Usage usage();

    @Override
    void close();
}
