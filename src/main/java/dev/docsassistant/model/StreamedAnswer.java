package dev.docsassistant.model;

import java.util.List;

/**
 * What actually reached the client: the message id the stream gave it, the text, the sources, the usage, and whether
 * the answer was complete (not cut short by an error, a disconnect or the shutdown).
 */
public record StreamedAnswer(String messageId, String text, List<Source> sources, Usage usage, boolean complete) {
}
