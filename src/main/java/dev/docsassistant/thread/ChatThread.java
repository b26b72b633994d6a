package dev.docsassistant.thread;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A conversation: whose it is and what was said. Only a hash of its key is kept.
 */
public record ChatThread(
        String id, String organizationId, String domainId, String fp, String keyHash, Instant createdAt,
        List<Turn> turns) {

    /** One question and the answer streamed for it. */
    public record Turn(Instant at, String question, String answer, List<String> sources) {
    }

    public ChatThread withTurn(Turn turn) {
        List<Turn> appended = new ArrayList<>(turns);
        appended.add(turn);
        return new ChatThread(id, organizationId, domainId, fp, keyHash, createdAt, List.copyOf(appended));
    }
}
