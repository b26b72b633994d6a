package dev.docsassistant.thread;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.docsassistant.config.Caches;

/**
 * A conversation: whose it is and what was said. Only a hash of its key is kept.
 */
public record ChatThread(
        String id, String organizationId, String domainId, String fp, String keyHash, Instant createdAt,
        List<Turn> turns) {

    /** One question and the answer streamed for it. */
    public record Turn(Instant at, String question, String answer, List<String> sources) {

        /** The heap it takes ({@link Caches}' estimate). */
        public long bytes() {
            return 2L * Caches.OBJECT + Caches.bytes(question) + Caches.bytes(answer) + Caches.OBJECT
                    + sources.stream().mapToLong(source -> Caches.REFERENCE + Caches.bytes(source)).sum();
        }
    }

    /** Whose the thread is: all a continuation checks. */
    public record Owner(String organizationId, String domainId, String fp, String keyHash) {
    }

    public Owner owner() {
        return new Owner(organizationId, domainId, fp, keyHash);
    }

    /** The heap it takes ({@link Caches}' estimate), its turns included. */
    public long bytes() {
        return Caches.OBJECT + Caches.bytes(id) + Caches.bytes(organizationId) + Caches.bytes(domainId)
                + Caches.bytes(fp) + Caches.bytes(keyHash) + Caches.OBJECT + Caches.OBJECT
                + turns.stream().mapToLong(turn -> Caches.REFERENCE + turn.bytes()).sum();
    }

    /**
     * This thread with the turn added and its oldest turns dropped until it keeps at most {@code maxTurns} turns
     * of at most {@code maxBytes} ({@link Turn#bytes}) together: a turn weighing more than that alone is not kept.
     */
    public ChatThread withTurn(Turn turn, int maxTurns, long maxBytes) {
        List<Turn> appended = new ArrayList<>(turns);
        appended.add(turn);
        long bytes = appended.stream().mapToLong(Turn::bytes).sum();
        int oldest = 0;
        while (oldest < appended.size() && (appended.size() - oldest > maxTurns || bytes > maxBytes)) {
            bytes -= appended.get(oldest++).bytes();
        }
        return new ChatThread(id, organizationId, domainId, fp, keyHash, createdAt,
                List.copyOf(appended.subList(oldest, appended.size())));
    }
}
