package dev.docsassistant.search;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The files of a docs folder, as only the folder holds them: a file is read only when its real path (links
 * resolved) is a regular file inside the folder's real path. A link to {@code /proc/self/environ}, to
 * {@code /etc/passwd} or to {@code ../private/} is as absent as a missing file, for pages, snippets,
 * {@code docs.json} and its {@code $ref}s, {@code .mintignore} and {@code Assistant.md} alike. Links that stay inside
 * are followed: a Kubernetes ConfigMap volume is made of them.
 */
final class FolderFiles {

    private final Path root;
    private final long maxFileBytes;

    FolderFiles(Path root) throws IOException {
        this(root, PageLimits.DEFAULT.maxPageChars());
    }

    /** @param maxFileBytes a larger file is not read ({@link PageLimits#maxPageChars}: no page may grow past it) */
    FolderFiles(Path root, long maxFileBytes) throws IOException {
        this.root = root.toRealPath();
        this.maxFileBytes = maxFileBytes;
    }

    /** The file's real path, or null when it is not a regular file inside the folder. */
    Path inside(Path file) {
        try {
            Path real = file.toRealPath();
            return real.startsWith(root) && Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS) ? real : null;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    boolean readable(Path file) {
        return inside(file) != null;
    }

    byte[] readBytes(Path file) throws IOException {
        Path real = inside(file);
        if (real == null) {
            throw new NoSuchFileException(file.toString(), null, "not a file inside the docs folder");
        }
        if (Files.size(real) > maxFileBytes) {
            throw new PageLimits.ExceededException(file.getFileName() + " is larger than " + maxFileBytes
                    + " bytes (assistant.search.max-page-chars)");
        }
        return Files.readAllBytes(real);
    }

    String read(Path file) throws IOException {
        return new String(readBytes(file), StandardCharsets.UTF_8);
    }
}
