package dev.docsassistant.sources;

import java.io.IOException;
import java.io.InputStream;
import java.net.Proxy;
import java.net.URL;
import java.time.Duration;

import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.JDKHttpConnection;
import org.eclipse.jgit.transport.http.JDKHttpConnectionFactory;

/**
 * JGit's HTTP connections for one sync of a Git source, as a site's are: only to the configured remote's scheme, host
 * and port (JGit follows redirects itself, opening each URL here, so one to another host is refused before a
 * connection, and no credential can follow it), only to a host the private-address rule allows
 * ({@link PrivateAddresses}), and every read of an answer checked against the sync's deadline, each waiting at most
 * what the sync has left, so a server that trickles cannot hold the sync past it.
 */
final class OwnHostHttp extends JDKHttpConnectionFactory {

    private final URIish remote;
    private final boolean allowPrivate;
    private final SyncDeadline deadline;

    OwnHostHttp(URIish remote, boolean allowPrivate, SyncDeadline deadline) {
        this.remote = remote;
        this.allowPrivate = allowPrivate;
        this.deadline = deadline;
    }

    @Override
    public HttpConnection create(URL url) throws IOException {
        return create(url, null);
    }

    @Override
    public HttpConnection create(URL url, Proxy proxy) throws IOException {
        if (!url.getProtocol().equalsIgnoreCase(remote.getScheme()) || !url.getHost().equalsIgnoreCase(remote.getHost())
                || url.getPort() != remote.getPort()) {
            throw new SyncException("a redirect to another host was refused");
        }
        deadline.check();
        PrivateAddresses.check(url.getHost(), allowPrivate);
        return proxy == null ? new Bounded(url) : new Bounded(url, proxy);
    }

    /** A connection whose answer is read within the sync's deadline. */
    private final class Bounded extends JDKHttpConnection {

        Bounded(URL url) throws IOException {
            super(url);
        }

        Bounded(URL url, Proxy proxy) throws IOException {
            super(url, proxy);
        }

        @Override
        public void setReadTimeout(int timeout) {
            super.setReadTimeout((int) deadline.bound(Duration.ofMillis(timeout)).toMillis());
        }

        @Override
        public InputStream getInputStream() throws IOException {
            return deadline.checking(super.getInputStream());
        }
    }
}
