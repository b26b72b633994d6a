package dev.docsassistant.ground;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** A UTF-8 text file on the classpath, read whole: the pages and scripts the service serves from the jar. */
public final class ClasspathText {

    private ClasspathText() {
    }

    /** @throws IllegalStateException if no such resource is on the classpath */
    public static String read(String name) {
        try (InputStream in = ClasspathText.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
