package dev.docsassistant.search;

import java.time.Instant;
import java.util.List;

/**
 * One sync of a domain's docs as {@code GET /v1/project/update-status/{statusId}} reports it, in Mintlify's shape:
 * {@code queued}, then {@code in_progress}, then {@code success} or {@code failure} with a summary, and the pages
 * added, modified and removed.
 */
public final class DocsUpdate {

    /** Mintlify's status values. */
    public enum Status { queued, in_progress, success, failure }

    /** Pages (routes) by what happened to them: Mintlify's {@code filesChanged}. */
    public record FilesChanged(List<String> added, List<String> modified, List<String> removed) {
        static final FilesChanged NONE = new FilesChanged(List.of(), List.of(), List.of());
    }

    /** The response body: Mintlify's field names ({@code _id} is the status id), times in ISO-8601. */
    public record View(String _id, String projectId, String status, String createdAt, String endedAt,
            String summary, String revision, FilesChanged filesChanged) {
    }

    private final String id;
    private final String domain;
    private final Instant createdAt = Instant.now();
    private volatile Status status = Status.queued;
    private volatile Instant endedAt;
    private volatile String summary = "";
    private volatile String revision;
    private volatile FilesChanged filesChanged = FilesChanged.NONE;

    DocsUpdate(String id, String domain) {
        this.id = id;
        this.domain = domain;
    }

    public String id() {
        return id;
    }

    public String domain() {
        return domain;
    }

    public Status status() {
        return status;
    }

    void started() {
        status = Status.in_progress;
    }

    void succeeded(String summary, String revision, FilesChanged changed) {
        this.summary = summary;
        this.revision = revision;
        this.filesChanged = changed;
        endedAt = Instant.now();
        status = Status.success;
    }

    void failed(String summary) {
        this.summary = summary;
        endedAt = Instant.now();
        status = Status.failure;
    }

    public View view() {
        Instant ended = endedAt;
        return new View(id, domain, status.name(), createdAt.toString(), ended == null ? null : ended.toString(),
                summary, revision, filesChanged);
    }
}
