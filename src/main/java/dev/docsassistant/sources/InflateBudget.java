package dev.docsassistant.sources;

import org.eclipse.jgit.errors.CorruptObjectException;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.BlobObjectChecker;
import org.eclipse.jgit.lib.ObjectChecker;
import org.eclipse.jgit.transport.PackParser;

/**
 * What one fetch may inflate, counted as JGit's pack parser hands it each object (as the parser's object checker; it
 * validates nothing else): every object's bytes, whole
 * blobs as they stream, bound the CPU; the objects it builds in memory (each delta's result, each commit and tree)
 * bound the heap. JGit resolves a delta chain in memory, keeping a base's result until its last child is resolved, so
 * a pack of deltas of a few bytes, each within the per-object bound, costs depth × object size in heap and hashing:
 * 60 links of 5 MiB, each with a leaf, is 300 MiB held at once from a 12 KB pack. Past either count the object is
 * refused and the fetch ends; {@link #exceeded()} then names the bound. One budget per fetch; JGit's parser runs on
 * the fetching thread only. It is the parser's checker, not the transport's: JGit refuses every shallow fetch as
 * "not a complete object graph" when its transport has a checker.
 */
final class InflateBudget extends ObjectChecker {

    private final long maxInflated;
    private final long maxInMemory;
    private long inflated;
    private long inMemory;
    private String exceeded;
    private PackParser parser;

    InflateBudget(long maxInflated, long maxInMemory) {
        this.maxInflated = maxInflated;
        this.maxInMemory = maxInMemory;
    }

    @Override
    public void check(AnyObjectId id, int objType, byte[] raw) throws CorruptObjectException {
        inMemory += raw.length;
        inflated += raw.length;
        verify();
    }

    @Override
    public BlobObjectChecker newBlobObjectChecker() {
        return new BlobObjectChecker() {
            @Override
            public void update(byte[] in, int offset, int len) {
                inflated += len;
            }

            @Override
            public void endBlob(AnyObjectId id) throws CorruptObjectException {
                verify();
            }
        };
    }

    private void verify() throws CorruptObjectException {
        if (inMemory > maxInMemory) {
            exceeded = "its deltas, commits and trees build more than " + maxInMemory
                    + " bytes in memory (assistant.sources.max-delta-bytes)";
        } else if (inflated > maxInflated) {
            exceeded = "its objects inflate to more than " + maxInflated
                    + " bytes (assistant.sources.max-inflated-bytes)";
        } else {
            return;
        }
        throw new CorruptObjectException(exceeded);
    }

    /** The parser of the fetch's pack, which {@link #arm()} gives this budget as its checker. */
    void parsing(PackParser parser) {
        this.parser = parser;
    }

    /**
     * Makes this budget the checker of the fetch's parser, as its progress begins, before it reads an object: the
     * fetch sets the parser's checker to the transport's (none) once it has made it.
     */
    void arm() {
        if (parser != null) {
            parser.setObjectChecker(this);
        }
    }

    /** Why the fetch was ended, or null if it was not. */
    String exceeded() {
        return exceeded;
    }
}
