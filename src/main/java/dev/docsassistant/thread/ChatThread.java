package dev.docsassistant.thread;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.docsassistant.ground.Caches;

/**
 * A conversation: whose it is and what was said. Only a hash of its key is kept.
 */
public record ChatThread(
        String id, String organizationId, String domainId, String fp, String keyHash, Instant createdAt,
        List<Turn> turns) {

    /**
     * One question and the answer streamed for it.
     *
     * @param messageId the id the stream gave the answer ({@code f:} in v1, {@code start} in v2), which feedback names
     * @param complete  false when the answer was cut short (the client left, the model failed, the service stopped)
     * @param answered  false when the turn is a gap in the docs ({@link Gaps#answered})
     * @param feedback  the reader's rating of the answer, or null
     */
    public record Turn(Instant at, String messageId, String question, String answer, List<String> sources,
            boolean complete, boolean answered, Feedback feedback) {

        /** The heap it takes ({@link Caches}' estimate). */
        public long bytes() {
            return 2L * Caches.OBJECT + Caches.bytes(messageId) + Caches.bytes(question) + Caches.bytes(answer)
                    + Caches.OBJECT + sources.stream().mapToLong(source -> Caches.REFERENCE + Caches.bytes(source)).sum()
                    + (feedback == null ? 0 : 2L * Caches.OBJECT + Caches.bytes(feedback.comment()));
        }

        public Turn withFeedback(Feedback rated) {
            return new Turn(at, messageId, question, answer, sources, complete, answered, rated);
        }
    }

    /** A reader's rating of one answer: {@code up} or {@code down}, and an optional comment. */
    public record Feedback(String rating, String comment, Instant at) {
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

    /** When it was last spoken in: its newest turn, or its start. */
    public Instant lastAt() {
        return turns.isEmpty() ? createdAt : turns.get(turns.size() - 1).at();
    }

    /**
     * This thread with the turn added, or in place of its turn with the same {@code messageId} (the question
     * recorded when it arrived, now answered), and its oldest turns dropped until it keeps at most {@code maxTurns}
     * turns of at most {@code maxBytes} ({@link Turn#bytes}) together: a turn weighing more than that alone is not
     * kept.
     */
    public ChatThread withTurn(Turn turn, int maxTurns, long maxBytes) {
        List<Turn> appended = new ArrayList<>(turns);
        int asked = appended.size() - 1;
        while (asked >= 0 && !appended.get(asked).messageId().equals(turn.messageId())) {
            asked--;
        }
        if (asked >= 0) {
            appended.set(asked, turn);
        } else {
            appended.add(turn);
        }
        long bytes = appended.stream().mapToLong(Turn::bytes).sum();
        int oldest = 0;
        while (oldest < appended.size() && (appended.size() - oldest > maxTurns || bytes > maxBytes)) {
            bytes -= appended.get(oldest++).bytes();
        }
        return new ChatThread(id, organizationId, domainId, fp, keyHash, createdAt,
                List.copyOf(appended.subList(oldest, appended.size())));
    }

    /** This thread with the answer {@code messageId} rated (replacing an earlier rating), or null if it has none. */
    public ChatThread withFeedback(String messageId, Feedback feedback) {
        List<Turn> rated = new ArrayList<>(turns);
        for (int i = 0; i < rated.size(); i++) {
            if (rated.get(i).messageId().equals(messageId)) {
                rated.set(i, rated.get(i).withFeedback(feedback));
                return new ChatThread(id, organizationId, domainId, fp, keyHash, createdAt, List.copyOf(rated));
            }
        }
        return null;
    }
}
