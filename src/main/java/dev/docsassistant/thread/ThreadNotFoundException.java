package dev.docsassistant.thread;

import dev.docsassistant.ground.ApiException;

public class ThreadNotFoundException extends ApiException {

    public ThreadNotFoundException() {
        super("thread_not_found", "No such thread, or the threadKey does not match it", "threadId");
    }
}
