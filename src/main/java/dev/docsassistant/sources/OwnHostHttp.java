package dev.docsassistant.sources;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.time.Duration;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;

import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.JDKHttpConnection;
import org.eclipse.jgit.transport.http.JDKHttpConnectionFactory;

/**
 * JGit's HTTP connections for one sync of a Git source, as a site's are: only to the configured remote's scheme, host
 * and port (JGit follows redirects itself, opening each URL here, so one to another host is refused before a
 * connection, and no credential can follow it), only to a host the private-address rule allows
 * ({@link PrivateAddresses}), and every read of an answer checked against the sync's deadline, each waiting at most
 * what the sync has left, so a server that trickles cannot hold the sync past it. Over HTTPS the rule is checked
 * again on the address each connection is made to ({@link CheckedTls}), so a name that resolves to a public address
 * for the check and to an inside one for the connection (DNS rebinding) never reaches inside; over plain HTTP (a lab
 * setting) each request goes to the one address resolved and checked for it ({@link #pinned}).
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

    /**
     * A session that never turns certificate checks off: JGit's own would, for {@code http.sslVerify=false} in a Git
     * config file, swap in a socket factory of its own, whose sockets connect unchecked.
     */
    @Override
    public GitSession newSession() {
        return new GitSession() {
            @Override
            public HttpConnection configure(HttpConnection connection, boolean sslVerify) {
                return connection;
            }

            @Override
            public void close() {
            }
        };
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
        if (!url.getProtocol().equalsIgnoreCase("https")) {
            return new Bounded(url, pinned(url, proxy));
        }
        PrivateAddresses.check(url.getHost(), allowPrivate);
        URL opened = allowPrivate ? url : new URL(null, url.toExternalForm(), CheckedTls.OPENER);
        return proxy == null ? new Bounded(opened) : new Bounded(opened, proxy);
    }

    /**
     * Where a plain HTTP request goes: to the host's first address, resolved and checked once here, as if it were a
     * proxy (the request names the host in its request line and Host header, as RFC 9112 has every server accept),
     * so the JDK's client connects to that address and never resolves the name itself. A configured proxy would
     * connect where no check sees: used only when private addresses are allowed.
     */
    private Proxy pinned(URL url, Proxy proxy) throws SyncException {
        if (proxy != null && proxy.type() != Proxy.Type.DIRECT) {
            if (allowPrivate) {
                return proxy;
            }
            throw new SyncException("a proxy for " + url.getHost() + " was refused: its connections are not checked "
                    + "(assistant.sources.allow-private-addresses)");
        }
        InetAddress address = PrivateAddresses.addresses(url.getHost(), allowPrivate)[0];
        return new Proxy(Proxy.Type.HTTP, new InetSocketAddress(address, url.getPort() < 0 ? url.getDefaultPort()
                : url.getPort()));
    }

    /**
     * TLS over sockets that connect only where the private-address rule allows. The JDK's HTTPS client (JDK 17 to 25,
     * {@code sun.net.www.protocol.https.HttpsClient}) asks its factory for an unconnected socket, connects it to the
     * address it resolves for that connection, then layers TLS on it with {@code createSocket(socket, host, port,
     * autoClose)}, host name checks included. This factory's socket checks that address before connecting, so the
     * address checked is the one connected to. Every other way to a socket is refused: the client's fallback, or a
     * proxy's tunnel, would connect where no check sees.
     */
    private static final class CheckedTls extends SSLSocketFactory {

        /** Opens {@code https} URLs as the JDK does, with this factory's sockets. */
        static final URLStreamHandler OPENER = new URLStreamHandler() {
            private final CheckedTls tls = new CheckedTls(HttpsURLConnection.getDefaultSSLSocketFactory());

            @Override
            protected URLConnection openConnection(URL url) throws IOException {
                return openConnection(url, Proxy.NO_PROXY);
            }

            @Override
            protected URLConnection openConnection(URL url, Proxy proxy) throws IOException {
                HttpsURLConnection connection = (HttpsURLConnection) new URL(url.toExternalForm())
                        .openConnection(proxy);
                connection.setSSLSocketFactory(tls);
                return connection;
            }
        };

        private final SSLSocketFactory tls;

        private CheckedTls(SSLSocketFactory tls) {
            this.tls = tls;
        }

        @Override
        public Socket createSocket() {
            return new CheckedSocket();
        }

        @Override
        public Socket createSocket(Socket socket, String host, int port, boolean autoClose) throws IOException {
            if (!(socket instanceof CheckedSocket)) {
                throw unchecked();
            }
            return tls.createSocket(socket, host, port, autoClose);
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            throw unchecked();
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            throw unchecked();
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            throw unchecked();
        }

        @Override
        public Socket createSocket(InetAddress host, int port, InetAddress localAddress, int localPort)
                throws IOException {
            throw unchecked();
        }

        private static SocketException unchecked() {
            return new SocketException("only a checked connection is used");
        }

        @Override
        public String[] getDefaultCipherSuites() {
            return tls.getDefaultCipherSuites();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return tls.getSupportedCipherSuites();
        }
    }

    /** A socket that connects only to an address the private-address rule allows. */
    private static final class CheckedSocket extends Socket {

        CheckedSocket() {
            super(Proxy.NO_PROXY);
        }

        @Override
        public void connect(SocketAddress endpoint, int timeout) throws IOException {
            PrivateAddresses.checkConnecting(endpoint);
            super.connect(endpoint, timeout);
        }
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
