package dev.docsassistant.sources;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

import dev.docsassistant.config.DocsSource;

/**
 * Fetches the docs of domains whose source is a Git repository or a published site into a folder of their own
 * under {@code assistant.sources.dir}, for the search step to index as it indexes any docs folder. Each domain's
 * syncs run one at a time (the caller's job); different domains never share a folder.
 */
public final class DocsSources {

    private final Path dir;
    private final SourceLimits limits;
    private final boolean allowHttp;

    /**
     * @param dir       where fetched repositories and snapshots are kept; blank for a folder in the temporary directory
     * @param allowHttp whether a Git or site source may be a plain {@code http://} URL (else https, or SSH for Git)
     */
    public DocsSources(String dir, SourceLimits limits, boolean allowHttp) throws IOException {
        this.dir = dir == null || dir.isBlank() ? Files.createTempDirectory("docs-assistant-sources") : Path.of(dir);
        this.limits = limits;
        this.allowHttp = allowHttp;
    }

    /**
     * The source's docs as a folder, or null when they have not changed since {@code previousRevision}.
     *
     * @param wanted false once the sync should stop (its domain removed or changed, the service stopping)
     * @throws IOException the source cannot be read, broke a limit, or the sync was stopped: nothing is served
     */
    public Snapshot sync(String domain, DocsSource source, String previousRevision, BooleanSupplier wanted)
            throws IOException {
        if (source.isFolder()) {
            throw new IllegalArgumentException("a docs folder is read where it is, not synced");
        }
        String url = source.git() != null ? source.git() : source.site();
        if (!allowHttp && url.regionMatches(true, 0, "http://", 0, "http://".length())) {
            throw new SyncException(source + " is a plain http:// URL: Git and site sources are https:// (or SSH for "
                    + "Git) unless assistant.sources.allow-http is true");
        }
        Path home = dir.resolve(domain);
        Files.createDirectories(home);
        SyncDeadline deadline = new SyncDeadline(limits.syncTimeout(), wanted);
        return source.git() != null ? GitSource.sync(domain, source, home, limits, deadline, previousRevision)
                : SiteSource.sync(domain, source, home, limits, deadline, previousRevision);
    }
}
