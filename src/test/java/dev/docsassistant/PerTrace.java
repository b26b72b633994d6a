package dev.docsassistant;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** How many times something happened in each trace: what the tests' counting OpenTelemetry providers record. */
final class PerTrace {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    void count(String traceId) {
        counts.computeIfAbsent(traceId, id -> new AtomicInteger()).incrementAndGet();
    }

    int of(String traceId) {
        AtomicInteger count = counts.get(traceId);
        return count == null ? 0 : count.get();
    }
}
