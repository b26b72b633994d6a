package dev.docsassistant.model;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.TimeUnit;

import dev.docsassistant.ground.ClientGoneException;
import dev.docsassistant.observe.AssistantMetrics;
import dev.docsassistant.observe.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls an OpenAI-compatible {@code POST /chat/completions} through the chat-completions route (where the
 * {@code to: http} step is) and returns its stream once the first token has arrived. Until then nothing has
 * reached the client, so a failure can still be retried: connection failures, a stream dropped before its first
 * token, 429 (after its {@code Retry-After}) and 5xx, with exponential backoff, within a bounded number of
 * attempts and wait. A server that connects but stays silent past the first-token timeout is not retried.
 */
public class ChatCompletions implements CamelContextAware, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChatCompletions.class);
    private static final AttributeKey<String> RETRY_REASON = AttributeKey.stringKey("assistant.model.retry_reason");

    private final String route;
    private final int retries;
    private final long backoffMillis;
    private final long maxWaitMillis;
    private final long firstTokenNanos;
    private final long idleNanos;
    private final StalledStreams timeouts = new StalledStreams();
    private CamelContext context;
    private volatile ProducerTemplate template;
    private final AssistantMetrics metrics;
    private Endpoint endpoint;

    /**
     * When a failed call is made again.
     *
     * @param retries       attempts after the first
     * @param backoffMillis wait before the first retry, doubled for each next one
     * @param maxWaitMillis the longest wait before a retry; a longer {@code Retry-After} is not waited for
     */
    public record RetryPolicy(int retries, long backoffMillis, long maxWaitMillis) {
    }

    /** @param route the route that makes the HTTP call, e.g. {@code direct:chat-completions} */
    public ChatCompletions(String route, RetryPolicy retry, long firstTokenTimeoutMillis, long idleTimeoutMillis,
            AssistantMetrics metrics) {
        this.route = route;
        this.metrics = metrics;
        this.retries = retry.retries();
        this.backoffMillis = retry.backoffMillis();
        this.maxWaitMillis = retry.maxWaitMillis();
        this.firstTokenNanos = TimeUnit.MILLISECONDS.toNanos(firstTokenTimeoutMillis);
        this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleTimeoutMillis);
    }

    /**
     * Sends the request body and returns the answer's stream, its first token already arrived. A cancellation
     * (the client left) aborts the request in flight or drops the stream being waited on, and ends the retries.
     */
    ChatCompletionChunks open(byte[] body, Cancellation cancellation) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            Retry retry;
            try {
                ChatCompletionChunks chunks = attempt(body, cancellation);
                Span.current().setAttribute(ModelSpan.RETRIES, attempt);
                return chunks;
            } catch (Retry e) {
                retry = e;
            }
            long wait = retry.afterMillis >= 0 ? retry.afterMillis : backoffMillis << Math.min(attempt, 20);
            if (attempt >= retries || wait > maxWaitMillis) {
                throw retry.failure;
            }
            LOG.info("Model call failed ({}); retrying in {} ms", retry.failure.getMessage(), wait);
            Span.current().addEvent("retry", Attributes.of(RETRY_REASON, retry.failure.getMessage()));
            metrics.upstreamRetry(UpstreamGuard.PROVIDER);
            if (cancellation.await(wait)) {
                throw cancelled();
            }
        }
    }

    private static ClientGoneException cancelled() {
        return new ClientGoneException();
    }

    private ChatCompletionChunks attempt(byte[] body, Cancellation cancellation) throws Retry {
        if (cancellation.isCancelled()) {
            throw cancelled();
        }
        long start = System.nanoTime();
        Exchange exchange = cancellation.during(() -> template().send(endpoint, e -> {
            e.getMessage().setBody(body);
            Tracing.join(e);
        }));
        Exception error = exchange.getException();
        if (error != null) {
            if (cancellation.isCancelled()) { // the call was aborted for the client that left
                throw cancelled();
            }
            throw failure(error);
        }
        UpstreamResponse response = exchange.getMessage().getBody(UpstreamResponse.class);
        Span.current().setAttribute(ModelSpan.STATUS, response.status());
        if (response.status() == 200) {
            ChatCompletionChunks chunks = new ChatCompletionChunks(response, start + firstTokenNanos, idleNanos,
                    timeouts);
            cancellation.onCancel(chunks::close);
            try {
                chunks.awaitFirstToken();
                return chunks;
            } catch (ModelTimeoutException e) {
                chunks.close();
                throw new ModelTimeoutException("The language model did not start answering in time");
            } catch (IOException e) {
                chunks.close();
                if (cancellation.isCancelled()) {
                    throw cancelled();
                }
                throw new Retry(new ModelFailedException("The language model closed the stream before answering",
                        true), -1);
            }
        }
        discard(response);
        int status = response.status();
        if (status == 429 || status >= 500) {
            throw new Retry(new ModelFailedException("The language model answered " + status, true),
                    retryAfterMillis(response.retryAfter()));
        }
        LOG.warn("The model server refused the request with status {}: check assistant.model.* settings", status);
        throw new ModelFailedException("The language model refused the request (" + status + ")", false);
    }

    private static RuntimeException failure(Exception error) throws Retry {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SocketTimeoutException && !(cause instanceof ConnectTimeoutException)) {
                return new ModelTimeoutException("The language model did not answer in time");
            }
            if (cause instanceof IOException) {
                throw new Retry(new ModelFailedException("Cannot reach the language model ("
                        + cause.getClass().getSimpleName() + ")", true), -1);
            }
        }
        LOG.error("Model call failed", error);
        return new ModelFailedException("The language model call failed", false);
    }

    /**
     * Frees an error response's connection by dropping it: reading the rest of its body could wait without end on a
     * server that stalls, since reads have no socket timeout.
     */
    private static void discard(UpstreamResponse response) {
        try {
            if (response.body() != null) {
                StreamingHttpClient.abort(response.body());
            }
        } catch (IOException ignored) {
            // nothing to keep
        } finally {
            response.release().run();
        }
    }

    /** {@code Retry-After} as seconds or an HTTP date, in milliseconds; -1 when absent or unreadable. */
    static long retryAfterMillis(String retryAfter) {
        if (retryAfter == null || retryAfter.isBlank()) {
            return -1;
        }
        String value = retryAfter.strip();
        try {
            return Math.max(0, Long.parseLong(value) * 1000);
        } catch (NumberFormatException notSeconds) {
            try {
                return Math.max(0, Duration.between(ZonedDateTime.now(),
                        ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)).toMillis());
            } catch (DateTimeParseException unreadable) {
                return -1;
            }
        }
    }

    private ProducerTemplate template() {
        ProducerTemplate current = template;
        if (current == null) {
            synchronized (this) {
                if (template == null) {
                    endpoint = context.getEndpoint(route);
                    template = context.createProducerTemplate();
                }
                current = template;
            }
        }
        return current;
    }

    @Override
    public void setCamelContext(CamelContext context) {
        this.context = context;
    }

    @Override
    public CamelContext getCamelContext() {
        return context;
    }

    @Override
    public void close() {
        timeouts.close();
    }

    /** A failed attempt worth another: what failed and how long the server asked us to wait (-1: not said). */
    private static final class Retry extends Exception {
        final ModelFailedException failure;
        final long afterMillis;

        Retry(ModelFailedException failure, long afterMillis) {
            super(null, null, false, false);
            this.failure = failure;
            this.afterMillis = afterMillis;
        }
    }
}
