package dev.docsassistant.thread;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.docsassistant.ground.Caches;

/**
 * Threads of one instance, bounded in bytes of heap ({@link ChatThread#bytes}) and forgotten after a period without
 * use, and in any case once older than the retention period; each keeps at most {@code maxTurns} turns of at most
 * {@code maxBytes}.
 */
public class InMemoryThreadStore implements ThreadStore {

    private final Cache<String, ChatThread> threads;
    private final int maxTurns;
    private final long maxBytes;

    /** @param retention how long after its start a thread is forgotten, however much used; zero for no bound */
    public InMemoryThreadStore(long memoryBytes, long ttlMinutes, int maxTurns, long maxBytes, Duration retention) {
        Duration ttl = Duration.ofMinutes(ttlMinutes);
        this.threads = Caches.<String, ChatThread>weighed(memoryBytes, (id, thread) -> thread.bytes())
                .expireAfter(new Expiry<String, ChatThread>() {
                    @Override
                    public long expireAfterCreate(String id, ChatThread thread, long now) {
                        return nanosLeft(thread);
                    }

                    @Override
                    public long expireAfterUpdate(String id, ChatThread thread, long now, long left) {
                        return nanosLeft(thread);
                    }

                    @Override
                    public long expireAfterRead(String id, ChatThread thread, long now, long left) {
                        return nanosLeft(thread);
                    }

                    /** The TTL from now, cut at the thread's retention deadline. */
                    private long nanosLeft(ChatThread thread) {
                        if (retention.isZero()) {
                            return ttl.toNanos();
                        }
                        Duration toDeadline = Duration.between(Instant.now(), thread.createdAt().plus(retention));
                        return Math.max(0, Math.min(ttl.toNanos(), toDeadline.toNanos()));
                    }
                })
                .build();
        this.maxTurns = maxTurns;
        this.maxBytes = maxBytes;
    }

    public InMemoryThreadStore(long memoryBytes, long ttlMinutes, int maxTurns, long maxBytes) {
        this(memoryBytes, ttlMinutes, maxTurns, maxBytes, Duration.ZERO);
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

    /** Sorting holds references to the matching threads only: the threads themselves are in memory already. */
    @Override
    public void export(String domainId, Instant since, Instant until, String fp, int limit,
            Predicate<ChatThread> each) {
        List<ChatThread> matching = threads.asMap().values().stream()
                .filter(thread -> thread.domainId().equals(domainId) && (fp == null || fp.equals(thread.fp())))
                .filter(thread -> !thread.lastAt().isBefore(since) && thread.lastAt().isBefore(until))
                .sorted(Comparator.comparing(ChatThread::lastAt).thenComparing(ChatThread::id))
                .limit(limit)
                .toList();
        for (ChatThread thread : matching) {
            if (!each.test(thread)) {
                return;
            }
        }
    }

    @Override
    public int erase(String domainId, String fp) {
        return erase(domainId, fp, Instant.MAX);
    }

    /** Removes the reader's threads on the domain started before {@code startedBefore}; returns how many. */
    public int erase(String domainId, String fp, Instant startedBefore) {
        int[] erased = {0};
        threads.asMap().values().removeIf(thread -> {
            boolean theirs = thread.domainId().equals(domainId) && fp.equals(thread.fp())
                    && thread.createdAt().isBefore(startedBefore);
            erased[0] += theirs ? 1 : 0;
            return theirs;
        });
        return erased[0];
    }

    /** The domains it holds threads of. */
    public Set<String> domains() {
        return threads.asMap().values().stream().map(ChatThread::domainId).collect(Collectors.toSet());
    }
}
