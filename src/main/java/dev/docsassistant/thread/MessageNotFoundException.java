package dev.docsassistant.thread;

import dev.docsassistant.ground.ApiException;

public class MessageNotFoundException extends ApiException {

    public MessageNotFoundException() {
        super("message_not_found", "The thread has no answer with this messageId", "messageId");
    }
}
