package dev.docsassistant.thread;

import java.time.Duration;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import dev.docsassistant.config.Caches;

/**
 * Threads of one instance, bounded in bytes of heap ({@link ChatThread#bytes}) and forgotten after a period without
 * use; each keeps at most {@code maxTurns} turns of at most {@code maxBytes}.
 */
public class InMemoryThreadStore implements ThreadStore {

    private final Cache<String, ChatThread> threads;
    private final int maxTurns;
    private final long maxBytes;

    public InMemoryThreadStore(long memoryBytes, long ttlMinutes, int maxTurns, long maxBytes) {
        this.threads = Caches.<String, ChatThread>weighed(memoryBytes, (id, thread) -> thread.bytes())
                .expireAfterAccess(Duration.ofMinutes(ttlMinutes))
                .build();
        this.maxTurns = maxTurns;
        this.maxBytes = maxBytes;
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
    public Optional<ChatThread.Owner> owner(String threadId) {
        return find(threadId).map(ChatThread::owner);
    }

    @Override
    public void append(String threadId, ChatThread.Turn turn) {
        threads.asMap().computeIfPresent(threadId, (id, thread) -> thread.withTurn(turn, maxTurns, maxBytes));
    }

    @Override
    public boolean feedback(String threadId, String messageId, ChatThread.Feedback feedback) {
        boolean[] rated = {false};
        threads.asMap().computeIfPresent(threadId, (id, thread) -> {
            ChatThread updated = thread.withFeedback(messageId, feedback);
            rated[0] = updated != null;
            return rated[0] ? updated : thread;
        });
        return rated[0];
    }
}
