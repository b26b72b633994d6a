package dev.docsassistant.config;

import com.github.benmanes.caffeine.cache.Caffeine;

/** The Caffeine caches a request uses (keys, limits, threads, search terms, encoded parts). */
public final class Caches {

    private Caches() {
    }

    /**
     * A cache builder whose upkeep (eviction, expiry, draining its read and write buffers) runs a little at a time on
     * the threads that use the cache, instead of being handed to {@code ForkJoinPool.commonPool()}: the hand-off woke
     * a pool thread after nearly every write, once or twice a request.
     */
    public static Caffeine<Object, Object> builder() {
        return Caffeine.newBuilder().executor(Runnable::run);
    }
}
