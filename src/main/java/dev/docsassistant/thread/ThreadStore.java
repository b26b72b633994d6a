package dev.docsassistant.thread;

import java.util.Optional;

/** Where conversations live: in memory by default; a shared store lets several instances continue them. */
public interface ThreadStore {

    void save(ChatThread thread);

    Optional<ChatThread> find(String threadId);

    /** Appends atomically, so concurrent turns on one thread are all kept. */
    void append(String threadId, ChatThread.Turn turn);
}
