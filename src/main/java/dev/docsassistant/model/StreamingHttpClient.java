package dev.docsassistant.model;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.ClientProtocolException;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.EofSensorInputStream;
import org.apache.hc.core5.http.io.HttpClientResponseHandler;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * The HTTP client behind the chat-completions {@code to: http} step ({@code httpClient=#chatCompletionsClient}).
 * camel-http runs its response handling inside HttpClient's execute-with-handler, which reads the rest of the body
 * once the handler returns: for a token stream that means waiting for the whole answer. This client hands the
 * response to camel-http as soon as its headers arrive and leaves the body open, so the model step reads tokens as
 * they come; the reader closes (or {@linkplain #abort aborts}) the body when it is done. A request made for a
 * {@link Cancellation} (see {@link Cancellation#during}) is aborted when it fires while the server has not yet sent
 * its response headers: the connection is dropped and the blocked call fails at once.
 * <p>
 * The pool holds one connection per concurrent model call; no automatic retries (the model step decides what to
 * retry), no compression (a token must not wait for a compressed block), no redirects, no cookies.
 */
public class StreamingHttpClient extends CloseableHttpClient {

    private final CloseableHttpClient client;
    private final long firstTokenTimeoutMs;
    private final StalledStreams headersDue = new StalledStreams();

    /**
     * @param maxConnections      connections to the upstream, at least the cap on concurrent model calls
     * @param connectTimeoutMs    how long connecting may take
     * @param firstTokenTimeoutMs how long the response headers may take
     */
    public StreamingHttpClient(int maxConnections, long connectTimeoutMs, long firstTokenTimeoutMs) {
        this.firstTokenTimeoutMs = firstTokenTimeoutMs;
        this.client = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setMaxConnTotal(maxConnections)
                        .setMaxConnPerRoute(maxConnections)
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.ofMilliseconds(connectTimeoutMs))
                                .setSocketTimeout(Timeout.DISABLED)
                                .build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.ofMilliseconds(connectTimeoutMs))
                        .setResponseTimeout(Timeout.DISABLED)
                        .build())
                .disableAutomaticRetries()
                .disableContentCompression()
                .disableRedirectHandling()
                .disableCookieManagement()
                .build();
    }

    @Override
    public <T> T execute(HttpHost target, ClassicHttpRequest request, HttpContext context,
            HttpClientResponseHandler<? extends T> handler) throws IOException {
        ClassicHttpResponse response = open(target, request, context);
        try {
            return handler.handleResponse(response);
        } catch (HttpException e) {
            response.close();
            throw new ClientProtocolException(e);
        } catch (IOException | RuntimeException e) {
            response.close();
            throw e;
        }
    }

    @Override
    protected CloseableHttpResponse doExecute(HttpHost target, ClassicHttpRequest request, HttpContext context)
            throws IOException {
        return (CloseableHttpResponse) open(target, request, context);
    }

    /**
     * Opens the response, aborting the request if its headers have not arrived by the first-token timeout, or if the
     * thread's {@link Cancellation} fires first; after that the reader of the body owns it (see
     * {@link ChatCompletionChunks#close}).
     */
    private ClassicHttpResponse open(HttpHost target, ClassicHttpRequest request, HttpContext context)
            throws IOException {
        if (!(request instanceof Cancellable cancellable)) {
            throw new IllegalArgumentException("Requests must be cancellable, not " + request.getClass().getName());
        }
        Cancellation cancellation = Cancellation.ofThisThread();
        Runnable abort = cancellable::cancel; // drops the connection, unblocking the wait for the headers
        HeadersDue due = new HeadersDue(cancellable,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(firstTokenTimeoutMs));
        headersDue.watch(due);
        if (cancellation != null) {
            cancellation.onCancel(abort);
        }
        try {
            return client.executeOpen(target, request, context);
        } catch (IOException e) {
            if (due.expired) {
                throw new SocketTimeoutException("No response headers in " + firstTokenTimeoutMs + " ms");
            }
            throw e;
        } finally {
            headersDue.forget(due);
            if (cancellation != null) {
                cancellation.forget(abort);
            }
        }
    }

    /** A request waiting for its response headers until {@code deadline} ({@link System#nanoTime()}). */
    private static final class HeadersDue implements StalledStreams.Watched {
        private final Cancellable request;
        private final long deadline;
        volatile boolean expired;

        HeadersDue(Cancellable request, long deadline) {
            this.request = request;
            this.deadline = deadline;
        }

        @Override
        public boolean overdue(long now) {
            return now - deadline > 0;
        }

        @Override
        public void expire() {
            expired = true;
            request.cancel();
        }
    }

    /**
     * Drops the connection under a response body at once, unblocking a read waiting on it (closing would instead
     * read the body to its end first).
     */
    static void abort(InputStream body) throws IOException {
        if (body instanceof EofSensorInputStream open) {
            open.abort();
        } else {
            body.close();
        }
    }

    @Override
    public void close(CloseMode closeMode) {
        headersDue.close();
        client.close(closeMode);
    }

    @Override
    public void close() throws IOException {
        headersDue.close();
        client.close();
    }
}
