package dev.docsassistant.sources;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.docsassistant.config.DocsSource;

/**
 * Fetches the docs of domains whose source is a Git repository or a published site into a folder of their own
 * under {@code assistant.sources.dir}, for the search step to index as it indexes any docs folder. Each domain's
 * syncs run one at a time (the caller's job); different domains never share a folder.
 */
public final class DocsSources {

    private final Path dir;
    private final SourceLimits limits;

    /** @param dir where fetched repositories and snapshots are kept; blank for a folder in the temporary directory */
    public DocsSources(String dir, SourceLimits limits) throws IOException {
        this.dir = dir == null || dir.isBlank() ? Files.createTempDirectory("docs-assistant-sources") : Path.of(dir);
        this.limits = limits;
    }

    /**
     * The source's docs as a folder, or null when they have not changed since {@code previousRevision}.
     *
     * @throws IOException the source cannot be read, or broke a limit: nothing is served from it
     */
    public Snapshot sync(String domain, DocsSource source, String previousRevision) throws IOException {
        if (source.isFolder()) {
            throw new IllegalArgumentException("a docs folder is read where it is, not synced");
        }
        Path home = dir.resolve(domain);
        Files.createDirectories(home);
        return source.git() != null ? GitSource.sync(domain, source, home, limits, previousRevision)
                : SiteSource.sync(domain, source, home, limits, previousRevision);
    }
}
