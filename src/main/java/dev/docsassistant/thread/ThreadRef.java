package dev.docsassistant.thread;

/** The thread this request continues or starts; {@code key} is set only when it was just created. */
public record ThreadRef(String id, String key) {

    public boolean isNew() {
        return key != null;
    }
}
