package dev.docsassistant.thread;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Function;

import dev.docsassistant.store.Store;
import dev.docsassistant.store.StoreOutage;
import dev.docsassistant.store.StoreUnavailableException;
import io.lettuce.core.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads on the configured {@link Store}: this instance's memory, or Redis shared by every replica and kept
 * across restarts. While Redis is unreachable, the store's {@link StoreOutage} policy applies. Failing open, a
 * conversation started during the outage lives on this instance (and is still found here afterwards); a shared
 * thread that cannot be read is answered 503, never 404, since it may well exist. An erasure reaches those threads
 * on every replica: it is recorded on Redis, and each replica holding threads of its own erases theirs by it
 * ({@link #eraseErasedElsewhere}).
 */
public class SharedThreadStore implements ThreadStore {

    private static final Logger LOG = LoggerFactory.getLogger(SharedThreadStore.class);

    private final InMemoryThreadStore local;
    private final RedisThreadStore shared;
    private final StoreOutage outage;

    /**
     * How long a thread lives and how much of it is kept, in memory and on Redis alike.
     *
     * @param ttlMinutes    a thread unused this long is forgotten
     * @param maxTurns      a thread keeps its newest turns, at most this many
     * @param maxBytes      taking at most this many bytes together (in memory their heap, on Redis their JSON)
     * @param retentionDays a thread is deleted this many days after its start, however much used; 0 for no bound
     */
    public record Limits(long ttlMinutes, int maxTurns, long maxBytes, int retentionDays) {
    }

    /**
     * @param memoryBytes heap the threads kept in memory may take (by the memory store, or by an instance going on
     *                    alone)
     */
    public SharedThreadStore(Store store, long memoryBytes, Limits limits) {
        Duration retention = Duration.ofDays(limits.retentionDays());
        this.local = new InMemoryThreadStore(memoryBytes, limits.ttlMinutes(), limits.maxTurns(), limits.maxBytes(),
                retention);
        this.shared = store.redis() == null ? null : new RedisThreadStore(store.redis(), limits.ttlMinutes(),
                limits.maxTurns(), limits.maxBytes(), retention);
        this.outage = store.outage();
    }

    @Override
    public void save(ChatThread thread) {
        if (shared == null) {
            local.save(thread);
            return;
        }
        outage.run(() -> shared.save(thread), () -> local.save(thread));
    }

    @Override
    public Optional<ChatThread> find(String threadId) {
        return read(store -> store.find(threadId));
    }

    @Override
    public Optional<ChatThread.Owner> owner(String threadId) {
        return read(store -> store.owner(threadId));
    }

    /** Read here first (a thread started during an outage), then on Redis. */
    private <T> Optional<T> read(Function<ThreadStore, Optional<T>> reading) {
        Optional<T> here = reading.apply(local);
        if (here.isPresent() || shared == null) {
            return here;
        }
        return outage.call(() -> reading.apply(shared), () -> {
            throw outage.unavailable();
        });
    }

    @Override
    public boolean feedback(String threadId, String messageId, ChatThread.Feedback feedback) {
        if (shared == null || local.find(threadId).isPresent()) {
            return local.feedback(threadId, messageId, feedback);
        }
        return outage.call(() -> shared.feedback(threadId, messageId, feedback), () -> {
            throw outage.unavailable();
        });
    }

    /** On Redis, the shared threads only: those an instance kept alone during an outage are its own. */
    @Override
    public void export(String domainId, Instant since, Instant until, String fp, int limit,
            Predicate<ChatThread> each) {
        if (shared == null) {
            local.export(domainId, since, until, fp, limit, each);
            return;
        }
        outage.run(() -> shared.export(domainId, since, until, fp, limit, each), () -> {
            throw outage.unavailable();
        });
    }

    /** Here and on Redis: a reader's threads kept during an outage are theirs too. */
    @Override
    public int erase(String domainId, String fp) {
        int erased = local.erase(domainId, fp);
        if (shared == null) {
            return erased;
        }
        return erased + outage.call(() -> shared.erase(domainId, fp), () -> {
            throw outage.unavailable();
        });
    }

    /**
     * Erases here the threads this instance kept alone during an outage whose reader was erased since (on any
     * replica); the store route runs it periodically. While Redis cannot be reached it is tried again next time.
     */
    public void eraseErasedElsewhere() {
        if (shared == null) {
            return;
        }
        for (String domainId : local.domains()) {
            Map<String, Instant> erasures;
            try {
                erasures = shared.erasures(domainId);
            } catch (RedisException e) {
                LOG.warn("Erasures on Redis cannot be read ({}); this instance's own threads are checked again later",
                        e.getMessage());
                return;
            }
            erasures.forEach((fp, erasedAt) -> local.erase(domainId, fp, erasedAt));
        }
    }

    /** Runs before the answer's last bytes, and never fails it: a turn it cannot keep is logged. */
    @Override
    public void append(String threadId, ChatThread.Turn turn) {
        keep(threadId, turn, ThreadStore::append);
    }

    /** Never fails the request: a question it cannot keep is logged, and its answer is then appended whole. */
    @Override
    public void ask(String threadId, ChatThread.Turn question) {
        keep(threadId, question, ThreadStore::ask);
    }

    private void keep(String threadId, ChatThread.Turn turn, Keeping keeping) {
        if (shared == null || local.find(threadId).isPresent()) {
            keeping.keep(local, threadId, turn);
            return;
        }
        try {
            outage.run(() -> keeping.keep(shared, threadId, turn), () -> {
                throw outage.unavailable();
            });
        } catch (StoreUnavailableException e) {
            LOG.warn("A turn of thread {} was not kept: the thread store is unreachable", threadId);
        }
    }

    private interface Keeping {
        void keep(ThreadStore store, String threadId, ChatThread.Turn turn);
    }
}
