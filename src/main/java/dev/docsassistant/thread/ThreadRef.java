package dev.docsassistant.thread;

/**
 * The thread this request continues or starts; {@code key} is set only when it was just created. {@code messageId}
 * names this request's answer: its question is recorded under it before the model is called, and the answer,
 * streamed under it, takes that turn's place.
 */
public record ThreadRef(String id, String key, String messageId) {

    public boolean isNew() {
        return key != null;
    }
}
