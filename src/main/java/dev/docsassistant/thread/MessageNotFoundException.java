package dev.docsassistant.thread;

import dev.docsassistant.web.ApiException;

public class MessageNotFoundException extends ApiException {

    public MessageNotFoundException() {
        super("message_not_found", "The thread has no answer with this messageId", "messageId");
    }
}
