package dev.docsassistant.sources;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.docsassistant.SshGitServer;
import dev.docsassistant.config.DocsSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An SSH source whose server accepts the connection and then says nothing: the sync fails, it does not hang. */
@EnabledIf(value = "dev.docsassistant.SshGitServer#installed",
        disabledReason = "ssh-keygen (openssh-server) is not installed: SSH tests skipped")
class KeyFileSshTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(60) // a guard for the build only: the sync gives up after the source's 1 s timeout
    void aSilentServerFailsTheSyncWithinTheSourceTimeout() throws Exception {
        SshGitServer.keygen(dir.resolve("key"), "ed25519", "");
        Files.writeString(dir.resolve("known_hosts"), "");
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread accepter = new Thread(() -> {
                try (Socket held = silent.accept()) {
                    // reads what the client sends (its version line) and answers nothing, until the client leaves
                    held.getInputStream().transferTo(OutputStream.nullOutputStream());
                } catch (IOException e) {
                    // the client reset the connection: it gave up, as it should
                }
            });
            accepter.start();
            DocsSource source = new DocsSource(null, "ssh://git@127.0.0.1:" + silent.getLocalPort() + "/docs.git",
                    null, null, null, null, null, null, dir.resolve("key").toString(),
                    dir.resolve("known_hosts").toString(), null);
            DocsSources sources = new DocsSources(dir.resolve("sources").toString(),
                    new SourceLimits(1 << 20, 100, 1 << 20, 1 << 20, 1, 0, true, 60, 100, 10, 1 << 30, 1 << 26), false);
            SyncException failure = assertThrows(SyncException.class, () -> sources.sync("silent", source, null, () -> true));
            assertTrue(failure.getMessage().startsWith("sync failed (ssh://127.0.0.1:" + silent.getLocalPort())
                    && failure.getMessage().endsWith("timed out"), failure.getMessage());
            accepter.join();
        }
    }
}
