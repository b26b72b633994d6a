package dev.docsassistant.thread;

import java.util.List;

/**
 * A thread as the admin endpoints show it to the docs team, times as ISO-8601 strings: who ({@code fp}), when, and
 * each turn's question, answer, sources, feedback, and whether it was complete and answered. Never its key's hash.
 */
public record ThreadView(String id, String fp, String createdAt, String updatedAt, List<TurnView> turns) {

    public record TurnView(String at, String messageId, String question, String answer, List<String> sources,
            boolean complete, boolean answered, FeedbackView feedback) {
    }

    public record FeedbackView(String rating, String comment, String at) {
    }

    public static ThreadView of(ChatThread thread) {
        return new ThreadView(thread.id(), thread.fp(), thread.createdAt().toString(), thread.lastAt().toString(),
                thread.turns().stream().map(turn -> new TurnView(turn.at().toString(), turn.messageId(),
                        turn.question(), turn.answer(), turn.sources(), turn.complete(), turn.answered(),
                        turn.feedback() == null ? null : new FeedbackView(turn.feedback().rating(),
                                turn.feedback().comment(), turn.feedback().at().toString()))).toList());
    }
}
