package dev.docsassistant.sources;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import com.jcraft.jsch.Identity;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Session;
import com.jcraft.jsch.SocketFactory;
import dev.docsassistant.config.DocsSource;
import org.eclipse.jgit.api.TransportConfigCallback;
import org.eclipse.jgit.errors.TransportException;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.RemoteSession;
import org.eclipse.jgit.transport.SshConstants;
import org.eclipse.jgit.transport.SshSessionFactory;
import org.eclipse.jgit.transport.SshTransport;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.ssh.jsch.JschSession;
import org.eclipse.jgit.util.FS;

/**
 * Git over SSH with the key file and known_hosts file a domain's source names, and nothing else: no ~/.ssh, no
 * agent, no SSH config, no password. Both files are read at each sync, so a rotated Secret applies at the next one.
 * The server's host key must be in the known_hosts file (StrictHostKeyChecking yes): an unknown or changed host key
 * fails the sync, it is never accepted on first use (JSch asks first for the key types known_hosts lists for the host,
 * so a server that also has a key of another type is still recognised). The key's bytes never reach a message: a key
 * JSch cannot read is reported by its file name only, since JSch's own messages may quote what it parsed.
 */
final class KeyFileSsh extends SshSessionFactory {

    private final JSch jsch;
    private final String knownHosts;
    private final SyncDeadline deadline;
    private final boolean allowPrivate;

    private KeyFileSsh(JSch jsch, String knownHosts, SyncDeadline deadline, boolean allowPrivate) {
        this.jsch = jsch;
        this.knownHosts = knownHosts;
        this.deadline = deadline;
        this.allowPrivate = allowPrivate;
    }

    /**
     * Sets up each transport of a sync of {@code source} over SSH with its key, its reads bounded by the sync's
     * {@code deadline}, connecting only where the private-address rule allows unless {@code allowPrivate}; null for an
     * https:// source.
     */
    static TransportConfigCallback forSource(DocsSource source, SyncDeadline deadline, boolean allowPrivate)
            throws IOException {
        if (!source.isSsh()) {
            return null;
        }
        JSch jsch = new JSch();
        byte[] key = Files.readAllBytes(Path.of(source.sshKey()));
        try {
            jsch.addIdentity(source.sshKey(), key, null, null);
            if (jsch.getIdentityRepository().getIdentities().stream().anyMatch(Identity::isEncrypted)) {
                throw new SyncException("sshKey " + source.sshKey() + " is encrypted with a passphrase: give the "
                        + "key without one (a deploy key in a Secret)");
            }
        } catch (JSchException e) {
            throw new SyncException("sshKey " + source.sshKey() + " is not a private key (OpenSSH, PEM or PuTTY)");
        } finally {
            Arrays.fill(key, (byte) 0);
        }
        try (InputStream in = Files.newInputStream(Path.of(source.knownHosts()))) {
            jsch.setKnownHosts(in);
        } catch (JSchException e) {
            throw new SyncException("knownHosts " + source.knownHosts() + " is not a known_hosts file: "
                    + e.getMessage());
        }
        KeyFileSsh sessions = new KeyFileSsh(jsch, source.knownHosts(), deadline, allowPrivate);
        return transport -> ((SshTransport) transport).setSshSessionFactory(sessions);
    }

    @Override
    public RemoteSession getSession(URIish uri, CredentialsProvider credentials, FS fs, int timeoutMillis)
            throws TransportException {
        int port = uri.getPort() > 0 ? uri.getPort() : SshConstants.SSH_DEFAULT_PORT;
        String host = port == SshConstants.SSH_DEFAULT_PORT ? uri.getHost() : "[" + uri.getHost() + "]:" + port;
        try {
            Session session = jsch.getSession(uri.getUser() == null ? getLocalUserName() : uri.getUser(),
                    uri.getHost(), port);
            session.setConfig("StrictHostKeyChecking", "yes");
            session.setConfig("PreferredAuthentications", "publickey");
            session.setSocketFactory(new CheckedSockets(allowPrivate, timeoutMillis));
            session.connect(timeoutMillis);
            return new DeadlineSession(session, uri, deadline);
        } catch (JSchException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            if (message.contains("HostKey")) {
                message = "the host key of " + host + " is unknown or changed: it is not in knownHosts " + knownHosts
                        + " (" + message + ")";
            }
            throw new TransportException(uri, message, e);
        }
    }

    /**
     * JSch's connections: to an address of the host resolved and checked once ({@link PrivateAddresses#connect}),
     * never to one JSch resolves itself, so a name that resolves to a public address for the check and to an inside one
     * for the connection (DNS rebinding) never reaches inside. The host key is still checked for the URL's host name.
     */
    private record CheckedSockets(boolean allowPrivate, int timeoutMillis) implements SocketFactory {

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return PrivateAddresses.connect(host, port, timeoutMillis, allowPrivate);
        }

        @Override
        public InputStream getInputStream(Socket socket) throws IOException {
            return socket.getInputStream();
        }

        @Override
        public OutputStream getOutputStream(Socket socket) throws IOException {
            return socket.getOutputStream();
        }
    }

    /**
     * A session whose commands' output is read only while the sync is on: every read checks the sync's deadline
     * first. A read that waits is ended by JGit's timeout ({@code assistant.sources.timeout-seconds}); a server that
     * trickles a byte now and then, never idle that long, is cut at its next byte past the deadline.
     */
    private static final class DeadlineSession extends JschSession {

        private final SyncDeadline deadline;

        DeadlineSession(Session session, URIish uri, SyncDeadline deadline) {
            super(session, uri);
            this.deadline = deadline;
        }

        @Override
        public Process exec(String command, int timeout) throws IOException {
            return new Deadlined(super.exec(command, timeout), deadline);
        }

        @Override
        public Process exec(String command, Map<String, String> environment, int timeout) throws IOException {
            return new Deadlined(super.exec(command, environment, timeout), deadline);
        }
    }

    /** A remote command whose output stream checks the sync's deadline before each read. */
    private static final class Deadlined extends Process {

        private final Process process;
        private final InputStream output;

        Deadlined(Process process, SyncDeadline deadline) {
            this.process = process;
            this.output = deadline.checking(process.getInputStream());
        }

        @Override
        public OutputStream getOutputStream() {
            return process.getOutputStream();
        }

        @Override
        public InputStream getInputStream() {
            return output;
        }

        @Override
        public InputStream getErrorStream() {
            return process.getErrorStream();
        }

        @Override
        public int waitFor() throws InterruptedException {
            return process.waitFor();
        }

        @Override
        public int exitValue() {
            return process.exitValue();
        }

        @Override
        public void destroy() {
            process.destroy();
        }
    }

    @Override
    public String getType() {
        return "docs-assistant-key-file";
    }
}
