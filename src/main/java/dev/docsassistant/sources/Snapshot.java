package dev.docsassistant.sources;

import java.nio.file.Path;

/**
 * What a sync yields: a folder holding the docs as fetched (regular files only) and the revision it holds (a
 * commit id, or a digest of a site's pages), so an unchanged source is not indexed again.
 */
public record Snapshot(Path folder, String revision) {
}
