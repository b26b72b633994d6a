package dev.docsassistant.ground;

import java.util.function.ToLongBiFunction;

import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The Caffeine caches a request uses (keys, limits, threads, search terms, encoded parts), and the estimate of the
 * heap they take that bounds each of them in bytes: a client chooses what a request holds, so a cap in entries would
 * let it choose the memory too.
 * <p>
 * The estimate is an upper bound for a 64-bit JVM with compressed references: 16 bytes per object header, 4 per
 * reference, and 2 per character of a string (compact strings hold Latin-1 text in 1, so plain English is counted
 * twice over). A cache entry adds {@link #ENTRY} for Caffeine's node and its slot in the hash table.
 */
public final class Caches {

    /** Caffeine's node for an entry (key, value, weight, access order, expiry) and its hash-table slot. */
    public static final int ENTRY = 96;
    /** An object's header and a few fields, for records of references and numbers. */
    public static final int OBJECT = 32;
    /** A reference to one more object (a list's slot, a field). */
    public static final int REFERENCE = 4;

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

    /**
     * A {@link #builder()} holding at most {@code maxBytes} as {@code weigher} estimates them (plus {@link #ENTRY}
     * per entry), the least recently and frequently used entries evicted first. An entry weighing more than the whole
     * cap is not kept.
     */
    public static <K, V> Caffeine<K, V> weighed(long maxBytes, ToLongBiFunction<? super K, ? super V> weigher) {
        return builder().maximumWeight(maxBytes)
                .weigher((K key, V value) ->
                        (int) Math.min(Integer.MAX_VALUE, ENTRY + weigher.applyAsLong(key, value)));
    }

    /** The heap a string takes: its object, its array's header, 2 bytes a character. 0 for null. */
    public static long bytes(String text) {
        return text == null ? 0 : 2L * OBJECT + 2L * text.length();
    }

    /**
     * A cache key for a client's text: its SHA-256, so the cache keeps 64 characters whatever the text's length,
     * and no client text.
     */
    public static String key(String text) {
        return Secrets.sha256(text);
    }
}
