package dev.docsassistant.model;

import java.io.IOException;
import java.io.InputStream;

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

    /**
     * @param maxConnections      connections to the upstream, at least the cap on concurrent model calls
     * @param connectTimeoutMs    how long connecting may take
     * @param firstTokenTimeoutMs how long the response headers may take; a single read is bounded by the longer of
     *                            this and the idle timeout, plus a second so that the model step, which
     *                            enforces each one precisely, speaks first
     */
    public StreamingHttpClient(int maxConnections, long connectTimeoutMs, long firstTokenTimeoutMs,
            long idleTimeoutMs) {
        long readTimeoutMs = Math.max(firstTokenTimeoutMs, idleTimeoutMs) + 1000;
        this.client = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setMaxConnTotal(maxConnections)
                        .setMaxConnPerRoute(maxConnections)
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.ofMilliseconds(connectTimeoutMs))
                                .setSocketTimeout(Timeout.ofMilliseconds(readTimeoutMs))
                                .build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.ofMilliseconds(connectTimeoutMs))
                        .setResponseTimeout(Timeout.ofMilliseconds(readTimeoutMs))
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
     * Opens the response, aborting the request if the thread's {@link Cancellation} fires before its headers have
     * arrived; after that the reader of the body owns it (see {@link ChatCompletionChunks#close}).
     */
    private ClassicHttpResponse open(HttpHost target, ClassicHttpRequest request, HttpContext context)
            throws IOException {
        Cancellation cancellation = Cancellation.ofThisThread();
        if (cancellation == null || !(request instanceof Cancellable cancellable)) {
            return client.executeOpen(target, request, context);
        }
        Runnable abort = cancellable::cancel; // drops the connection, unblocking the wait for the headers
        cancellation.onCancel(abort);
        try {
            return client.executeOpen(target, request, context);
        } finally {
            cancellation.forget(abort);
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
        client.close(closeMode);
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
