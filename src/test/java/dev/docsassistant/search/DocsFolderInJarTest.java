package dev.docsassistant.search;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The bundled demo docs are read from inside the runnable jar, where a path has no {@code java.io.File}. */
class DocsFolderInJarTest {

    @TempDir
    Path temp;

    @Test
    void readsDocsInsideAJar() throws Exception {
        URI jar = URI.create("jar:" + temp.resolve("docs.jar").toUri());
        try (FileSystem zip = FileSystems.newFileSystem(jar, Map.of("create", "true"))) {
            Path root = Files.createDirectories(zip.getPath("/demo-docs"));
            Files.writeString(root.resolve("docs.json"), """
                    {"navigation": {"groups": [{"group": "Start", "pages": ["quickstart"]}]}}
                    """);
            Files.writeString(root.resolve("quickstart.mdx"), "---\ntitle: Quickstart\n---\n\nRun it.\n");

            Docs docs = DocsFolder.read(root);

            assertEquals(1, docs.pages().size());
            assertEquals("Quickstart", docs.pages().get(0).title());
            assertEquals(java.util.List.of("Start"), docs.pages().get(0).breadcrumb());
        }
    }
}
