package dev.docsassistant.thread;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Predicate;

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

    /**
     * Appends atomically, or replaces the turn with the same {@code messageId} (a question recorded on arrival, now
     * answered), dropping the oldest turns past the caps, so concurrent turns on one thread are all kept.
     */
    void append(String threadId, ChatThread.Turn turn);

    /** Appends a question as it arrives, which {@link #append} with its {@code messageId} later answers. */
    default void ask(String threadId, ChatThread.Turn question) {
        append(threadId, question);
    }

    /** Rates the answer {@code messageId} of the thread, replacing an earlier rating; false if it has no such answer. */
    boolean feedback(String threadId, String messageId, ChatThread.Feedback feedback);

    /**
     * Hands over the domain's threads last spoken in ({@link ChatThread#lastAt}) from {@code since} (inclusive) to
     * {@code until} (exclusive), oldest first, at most {@code limit}, only {@code fp}'s unless it is null: each as it
     * is read, so an export never holds more than a page of them, until {@code each} returns false. Reading does not
     * extend a thread's life.
     */
    void export(String domainId, Instant since, Instant until, String fp, int limit, Predicate<ChatThread> each);

    /**
     * Removes every thread of the reader {@code fp} on the domain, whatever touched it last; returns how many. Throws
     * (a 503) when a store that may hold some cannot be reached: never a count that may have missed some.
     */
    int erase(String domainId, String fp);
}
