package dev.docsassistant.stream;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.docsassistant.config.Secrets;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.model.ModelReply;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.Usage;
import dev.docsassistant.observe.AssistantMetrics;
import dev.docsassistant.search.SearchResult;
import dev.docsassistant.thread.ThreadRef;
import dev.docsassistant.web.ResponseHeaders;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.vertx.HttpMessage;
import org.apache.camel.spi.ShutdownPrepared;
import org.apache.camel.support.service.ServiceSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream step: writes the answer to the client as AI SDK v4 data-stream parts while the model produces it.
 * Step one is the search, shown as a {@code search} tool call and its result; step two is the sources and the
 * text; the finish parts carry the thread id. The response is always ended, and a failure after the first byte
 * becomes a {@code 3:} error part, since the status line is already sent. At shutdown Camel tells the step (a
 * {@link ShutdownPrepared} route service), which gives open streams their grace period ({@link OpenStreams}).
 */
public class StreamDataParts extends ServiceSupport implements Processor, ShutdownPrepared {

    private static final Logger LOG = LoggerFactory.getLogger(StreamDataParts.class);

    private final OpenStreams openStreams;
    private final AssistantMetrics metrics;

    public StreamDataParts(OpenStreams openStreams, AssistantMetrics metrics) {
        this.openStreams = openStreams;
        this.metrics = metrics;
    }

    /** Camel stops routes: first gently (streams get their grace period), then, at its own timeout, forced. */
    @Override
    public void prepareShutdown(boolean suspendOnly, boolean forced) {
        if (forced) {
            openStreams.cutAll();
        } else if (!suspendOnly) {
            openStreams.shutdownBegins();
        }
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        Tenant tenant = exchange.getProperty(Tenant.PROPERTY, Tenant.class);
        ThreadRef thread = exchange.getProperty(ThreadRef.PROPERTY, ThreadRef.class);
        SearchResult search = exchange.getProperty(SearchResult.PROPERTY, SearchResult.class);
        ModelReply reply = exchange.getProperty(ModelReply.PROPERTY, ModelReply.class);

        ResponseStream out = new ResponseStream(exchange.getMessage(HttpMessage.class).getResponse(),
                headers(exchange, tenant), reply::close, openStreams);
        StringBuilder text = new StringBuilder();
        boolean complete = false;
        boolean failed = false;
        try (reply) {
            String toolCallId = "call_" + Secrets.token(12);
            out.write(DataStreamParts.startStep("msg-" + Secrets.token(12)));
            metrics.firstByte(sinceArrival(exchange));
            out.write(DataStreamParts.searchCall(toolCallId, search.query().question()));
            out.write(DataStreamParts.searchResult(toolCallId, search.hits()));
            out.write(DataStreamParts.finishStep("tool-calls", Usage.NONE));
            out.write(DataStreamParts.startStep("msg-" + Secrets.token(12)));
            for (Source source : reply.sources()) {
                out.write(DataStreamParts.source(source));
            }
            for (String delta = reply.nextDelta(); delta != null && out.isOpen(); delta = reply.nextDelta()) {
                text.append(delta);
                out.write(DataStreamParts.text(delta));
            }
            if (out.isOpen()) {
                out.write(DataStreamParts.finishStep("stop", reply.usage()));
                out.write(DataStreamParts.finishData(thread.id()));
                out.write(DataStreamParts.finishMessage(reply.usage(), thread.id()));
                complete = true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failed = true;
            if (out.isOpen()) {
                LOG.warn("Answer for domain '{}' failed after streaming began: {}", tenant.domainId(), e.toString());
                out.write(DataStreamParts.error("The answer was interrupted by an error. Please ask again."));
            } // else the client left and closing the reply made it fail: nothing to report

        } finally {
            out.end();
            metrics.streamEnded(sinceArrival(exchange),
                    complete ? "complete" : out.wasCut() ? "shutdown" : failed ? "error" : "client_gone");
            metrics.tokens(tenant, reply.usage());
        }
        exchange.setProperty(StreamedAnswer.PROPERTY,
                new StreamedAnswer(text.toString(), reply.sources(), reply.usage(), complete));
    }

    private static Duration sinceArrival(Exchange exchange) {
        return Duration.ofMillis(exchange.getClock().elapsed());
    }

    private static Map<String, String> headers(Exchange exchange, Tenant tenant) {
        Map<String, String> headers = new LinkedHashMap<>(ResponseHeaders.of(exchange));
        headers.put("Content-Type", "text/plain; charset=utf-8");
        headers.put("X-Vercel-AI-Data-Stream", "v1");
        headers.put("Cache-Control", "no-cache");
        headers.put("X-Accel-Buffering", "no");
        headers.put("Deprecation", "true");
        headers.put("Link", "</v2/assistant/" + tenant.domainId() + "/message>; rel=\"successor-version\"");
        return headers;
    }
}
