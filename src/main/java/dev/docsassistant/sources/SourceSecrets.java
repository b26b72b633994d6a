package dev.docsassistant.sources;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.docsassistant.config.DocsSource;

/**
 * The secrets a tenants file names: a name with a slash is a mounted file (a Kubernetes Secret volume), any other
 * the environment variable of that name. The value is read at each use, so a rotated Secret takes effect at the next
 * sync; it is never logged, and a missing one fails the sync with the name only.
 */
public final class SourceSecrets {

    private SourceSecrets() {
    }

    /** The secret's value, trimmed; null when {@code name} is null. */
    public static String read(String name) throws IOException {
        if (name == null) {
            return null;
        }
        String value;
        if (DocsSource.isFile(name)) {
            value = Files.readString(Path.of(name), StandardCharsets.UTF_8);
        } else {
            value = System.getenv(name);
            if (value == null) {
                throw new IOException("environment variable " + name + " is not set");
            }
        }
        value = value.strip();
        if (value.isEmpty()) {
            throw new IOException("secret " + name + " is empty");
        }
        return value;
    }
}
