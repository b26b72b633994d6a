package dev.docsassistant.thread;

import java.util.Optional;

/**
 * Where conversations live: in memory by default; a shared store lets several instances continue them. A thread
 * keeps its newest turns only, as many and as heavy as the store's caps allow.
 */
public interface ThreadStore {

    void save(ChatThread thread);

    /** The thread with its turns. */
    Optional<ChatThread> find(String threadId);

    /** Whose the thread is, read without its turns; refreshes its expiry like {@link #find}. */
    Optional<ChatThread.Owner> owner(String threadId);

    /** Appends atomically, dropping the oldest turns past the caps, so concurrent turns on one thread are all kept. */
    void append(String threadId, ChatThread.Turn turn);

    /** Rates the answer {@code messageId} of the thread, replacing an earlier rating; false if it has no such answer. */
    boolean feedback(String threadId, String messageId, ChatThread.Feedback feedback);
}
