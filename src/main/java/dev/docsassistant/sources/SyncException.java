package dev.docsassistant.sources;

import java.io.IOException;

/** A sync that failed for a reason worth telling the docs team as it is (no credential is ever in the message). */
public class SyncException extends IOException {

    public SyncException(String message) {
        super(message);
    }

    public SyncException(String message, Throwable cause) {
        super(message, cause);
    }
}
