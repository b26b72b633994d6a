package dev.docsassistant.thread;

import java.util.List;
import java.util.Locale;

import dev.docsassistant.model.ExtractiveModel;

/**
 * What the docs do not cover. A turn is unanswered when the search found no page for it (the index returns only
 * pages matching the question, scored relative to the best one, so "no hit" is the one absolute signal), or when the
 * answer says so: it contains, ignoring case, the extractive model's {@link ExtractiveModel#NOT_FOUND} sentence or
 * one of {@link #NOT_COVERED}, the words the system prompt asks a language model to say plainly.
 */
public final class Gaps {

    static final List<String> NOT_COVERED = List.of(ExtractiveModel.NOT_FOUND.toLowerCase(Locale.ROOT),
            "documentation does not cover", "docs do not cover", "documentation doesn't cover",
            "docs don't cover", "not covered in the documentation", "not covered by the documentation");

    private Gaps() {
    }

    /** @param found whether the search found any page for the question */
    public static boolean answered(boolean found, String answer) {
        if (!found) {
            return false;
        }
        String said = answer.toLowerCase(Locale.ROOT);
        return NOT_COVERED.stream().noneMatch(said::contains);
    }
}
