package dev.docsassistant.model;

import java.util.List;

import dev.docsassistant.search.SearchHit;

/**
 * What a {@link ModelReply} produces, in order. Protocol-neutral: the stream step encodes each event in its wire
 * format (AI SDK v4 data-stream parts for /v1). A reply is a sequence of steps, each ended by {@link StepEnd}; a
 * step in which the model searched holds its {@link SearchCalled} and {@link SearchAnswered} events.
 */
public sealed interface ModelEvent {

    /** The next piece of the answer's text. */
    record Text(String delta) implements ModelEvent {
    }

    /** The model asked to search the documentation. */
    record SearchCalled(String toolCallId, String query) implements ModelEvent {
    }

    /** What that search gave the model, best first: the excerpts its tool result holds. */
    record SearchAnswered(String toolCallId, List<SearchHit> hits) implements ModelEvent {
    }

    /** Something the reader should know about how this answer was made (say, the model was unavailable). */
    record Notice(String code, String message) implements ModelEvent {
    }

    /**
     * The end of a step.
     *
     * @param finishReason why the step ended, in the AI SDK's words: {@code stop}, {@code length},
     *                     {@code content-filter}, {@code tool-calls}, {@code other}
     * @param usage        tokens spent on this step
     */
    record StepEnd(String finishReason, Usage usage) implements ModelEvent {

        public static final String STOP = "stop";
        public static final String TOOL_CALLS = "tool-calls";
    }
}
