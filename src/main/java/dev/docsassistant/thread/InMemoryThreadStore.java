package dev.docsassistant.thread;

import java.time.Duration;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import dev.docsassistant.config.Caches;

/** Threads of one instance, bounded in number and forgotten after a period without use. */
public class InMemoryThreadStore implements ThreadStore {

    private final Cache<String, ChatThread> threads;

    public InMemoryThreadStore(long maxThreads, long ttlMinutes) {
        this.threads = Caches.builder()
                .maximumSize(maxThreads)
                .expireAfterAccess(Duration.ofMinutes(ttlMinutes))
                .build();
    }

    @Override
    public void save(ChatThread thread) {
        threads.put(thread.id(), thread);
    }

    @Override
    public Optional<ChatThread> find(String threadId) {
        return Optional.ofNullable(threads.getIfPresent(threadId));
    }

    @Override
    public void append(String threadId, ChatThread.Turn turn) {
        threads.asMap().computeIfPresent(threadId, (id, thread) -> thread.withTurn(turn));
    }
}
