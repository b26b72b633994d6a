package dev.docsassistant.model;

import java.io.InputStream;

/**
 * The model server's answer as the chat-completions route leaves it: the status, its {@code Retry-After}, and the
 * still-open body, which {@code release} frees once it has been read or abandoned.
 */
public record UpstreamResponse(int status, String retryAfter, InputStream body, Runnable release) {
}
