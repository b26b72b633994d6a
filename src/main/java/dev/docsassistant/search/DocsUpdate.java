package dev.docsassistant.search;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

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

    /**
     * What started the sync, Mintlify's {@code source}: {@code api} (the trigger endpoint), {@code github} or
     * {@code gitlab} (their push webhooks).
     */
    public enum Source { api, github, gitlab }

    /** Mintlify's {@code commit}: the revision now served, the ref it was read from, the pages changed. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Commit(String sha, String ref, FilesChanged filesChanged) {
    }

    /**
     * The response body in Mintlify's shape ({@code _id} is the status id, {@code subdomain} and {@code projectId}
     * the domain, times in ISO-8601, {@code logs} the summary once ended); {@code revision} and {@code filesChanged}
     * repeat {@code commit}'s at the top level, where this API had them. A field with no value (an update still under
     * way has no {@code endedAt}, a folder no commit) is left out, as Mintlify's schema has none nullable.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record View(String _id, String projectId, String subdomain, String status, String source,
            String createdAt, String endedAt, String summary, List<String> logs, Commit commit, String revision,
            FilesChanged filesChanged) {
    }

    private final String id;
    private final String domain;
    private final Source source;
    private final String ref;
    private final Instant createdAt = Instant.now();
    private volatile Status status = Status.queued;
    private volatile Instant endedAt;
    private volatile String summary = "";
    private volatile String revision;
    private volatile FilesChanged filesChanged = FilesChanged.NONE;

    /** @param ref the Git ref synced, null for a folder or a site */
    DocsUpdate(String id, String domain, Source source, String ref) {
        this.id = id;
        this.domain = domain;
        this.source = source;
        this.ref = ref;
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
        String sha = revision;
        FilesChanged changed = filesChanged;
        return new View(id, domain, domain, status.name(), source.name(), createdAt.toString(),
                ended == null ? null : ended.toString(), summary, ended == null ? List.of() : List.of(summary),
                new Commit(sha, ref, changed), sha, changed);
    }
}
