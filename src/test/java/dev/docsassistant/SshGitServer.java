package dev.docsassistant;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real SSH server on loopback for the tests: OpenSSH's sshd, run as the current user on a free port with host keys
 * of its own (ed25519 and ECDSA) in a folder, letting in only the public keys in its authorized_keys file, as a Git
 * host does; a client runs {@code git-upload-pack '<path>'} to fetch the bare repository at that path.
 */
public final class SshGitServer implements AutoCloseable {

    private static final Path SSHD = Path.of("/usr/sbin/sshd");

    private final Path dir;
    private final int port;
    private final Process process;

    /**
     * Whether sshd is installed, for {@code @EnabledIf}: a test class skips when it is not, except on CI, where
     * .ci/run installs openssh-server and a missing sshd is an error.
     */
    public static boolean installed() {
        if (!Files.isExecutable(SSHD) && "true".equals(System.getenv("CI"))) {
            throw new IllegalStateException(SSHD + " is not installed: .ci/run must install openssh-server");
        }
        return Files.isExecutable(SSHD);
    }

    public SshGitServer(Path dir) throws IOException, InterruptedException {
        this.dir = dir.toAbsolutePath();
        Files.createDirectories(this.dir);
        keygen(this.dir.resolve("host_ed25519"), "ed25519", "");
        keygen(this.dir.resolve("host_ecdsa"), "ecdsa", "");
        Files.writeString(this.dir.resolve("authorized_keys"), "");
        if ("root".equals(System.getProperty("user.name"))) {
            // sshd started as root drops privileges into this folder, which the package's service would create
            Files.createDirectories(Path.of("/run/sshd"));
        }
        port = RedisServer.freePort();
        Path config = this.dir.resolve("sshd_config");
        Files.writeString(config, String.join("\n", List.of("Port " + port, "ListenAddress 127.0.0.1",
                "HostKey " + this.dir.resolve("host_ed25519"), "HostKey " + this.dir.resolve("host_ecdsa"),
                "AuthorizedKeysFile " + this.dir.resolve("authorized_keys"), "PidFile " + this.dir.resolve("pid"),
                "UsePAM no", "StrictModes no", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                "PermitRootLogin prohibit-password", "")));
        process = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(this.dir.resolve("sshd.log").toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!listening()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                process.destroy();
                throw new IOException("sshd did not start: " + Files.readString(this.dir.resolve("sshd.log")));
            }
            Thread.sleep(20);
        }
    }

    private boolean listening() {
        try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Writes a new key pair, its private key encrypted with {@code passphrase} unless empty: {@code file(.pub)}. */
    public static void keygen(Path file, String type, String passphrase) throws IOException, InterruptedException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.deleteIfExists(file);
        Files.deleteIfExists(Path.of(file + ".pub"));
        Process keygen = new ProcessBuilder("ssh-keygen", "-q", "-t", type, "-N", passphrase, "-C", "test", "-f",
                file.toString()).redirectErrorStream(true).start();
        String output = new String(keygen.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (keygen.waitFor() != 0) {
            throw new IOException("ssh-keygen failed: " + output);
        }
    }

    /** Lets in exactly the holders of these private keys (their {@code .pub} files), from the next connection on. */
    public void authorize(Path... privateKeys) throws IOException {
        StringBuilder keys = new StringBuilder();
        for (Path key : privateKeys) {
            keys.append(Files.readString(Path.of(key + ".pub")));
        }
        Files.writeString(dir.resolve("authorized_keys"), keys);
    }

    /**
     * Lets in the holder of this private key too, who gets {@code command} (sshd's forced command, run by the shell)
     * whatever Git asks for: a server that stalls or trickles once the session is up.
     */
    public void authorizeForced(Path privateKey, String command) throws IOException {
        Files.writeString(dir.resolve("authorized_keys"), "command=\"" + command + "\" "
                + Files.readString(Path.of(privateKey + ".pub")), java.nio.file.StandardOpenOption.APPEND);
    }

    /** {@code ssh://<user>@127.0.0.1:<port><bare>}: the URL of the bare repository at {@code bare}. */
    public String url(Path bare) {
        return "ssh://" + System.getProperty("user.name") + "@127.0.0.1:" + port + bare.toAbsolutePath();
    }

    /** A known_hosts line for this server with its host key of {@code type} (ed25519 or ecdsa). */
    public String knownHostsLine(String type) throws IOException {
        return knownHostsLine(dir.resolve("host_" + type + ".pub"));
    }

    /** A known_hosts line naming this server with a key that is not its own (a changed host key). */
    public String impostorKnownHostsLine() throws IOException, InterruptedException {
        Path impostor = dir.resolve("impostor");
        keygen(impostor, "ed25519", "");
        return knownHostsLine(Path.of(impostor + ".pub"));
    }

    private String knownHostsLine(Path publicKey) throws IOException {
        return "[127.0.0.1]:" + port + " " + Files.readString(publicKey).strip() + "\n";
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }
}
