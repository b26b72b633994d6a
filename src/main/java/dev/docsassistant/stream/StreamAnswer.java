package dev.docsassistant.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.Secrets;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.model.ModelEvent;
import dev.docsassistant.model.ModelReply;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.StreamedAnswer;
import dev.docsassistant.model.Usage;
import dev.docsassistant.observe.AssistantMetrics;
import dev.docsassistant.ratelimit.TokenBudget;
import dev.docsassistant.search.SearchResult;
import dev.docsassistant.thread.RecordTurn;
import dev.docsassistant.thread.ThreadRef;
import io.vertx.core.http.HttpVersion;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.vertx.HttpMessage;
import org.apache.camel.spi.ShutdownPrepared;
import org.apache.camel.support.service.ServiceSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream step: writes the answer to the client while the model produces it, in the wire format its
 * {@link AnswerEncoder} speaks (AI SDK v4 data-stream parts for /v1, the v5 UI message stream for /v2). Every
 * protocol gets the same events: step one is the search, shown as a {@code search} tool call and its result; step
 * two is the sources and the model's events (text, its own searches, notices), each further step framed by
 * start/finish-step; the finish carries the thread id. The turn is recorded before the finish (or, cut short, before
 * the response ends), so a follow-up sent the moment the stream ends finds it. The response is always ended, and a failure
 * after the first byte is reported in the stream, since the status line is already sent. While the model is
 * silent, a protocol that allows it gets a keep-alive line now and then, so idle proxies keep the connection.
 * At shutdown Camel tells the step (a {@link ShutdownPrepared} route service), which gives open streams their
 * grace period ({@link OpenStreams}).
 */
public class StreamAnswer extends ServiceSupport implements Processor, ShutdownPrepared {

    private static final Logger LOG = LoggerFactory.getLogger(StreamAnswer.class);

    private final AnswerEncoder encoder;
    private final Duration keepAlive;
    private final OpenStreams openStreams;
    private final AssistantMetrics metrics;
    private final TokenBudget tokenBudget;
    private final RecordTurn recordTurn;
    private final String cutShort;

    /** Where every answer is booked as it ends, however it ends: its tokens against the budget, its turn. */
    public record Ledger(TokenBudget tokenBudget, RecordTurn recordTurn) {
    }

    /** @param keepAliveSeconds how long the stream may stay silent before a keep-alive line; 0 for never */
    public StreamAnswer(AnswerEncoder encoder, int keepAliveSeconds, OpenStreams openStreams,
            AssistantMetrics metrics, Ledger ledger) {
        this.encoder = encoder;
        this.keepAlive = Duration.ofSeconds(keepAliveSeconds);
        this.openStreams = openStreams;
        this.metrics = metrics;
        this.tokenBudget = ledger.tokenBudget();
        this.recordTurn = ledger.recordTurn();
        this.cutShort = encoder.error(OpenStreams.SHUTDOWN_MESSAGE) + encoder.end();
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
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        ThreadRef thread = exchange.getProperty(StepContract.THREAD, ThreadRef.class);
        SearchResult search = exchange.getProperty(StepContract.SEARCH, SearchResult.class);
        ModelReply reply = exchange.getProperty(StepContract.REPLY, ModelReply.class);

        Map<String, String> headers = new LinkedHashMap<>(ResponseHeaders.of(exchange));
        headers.putAll(encoder.headers(tenant));
        HttpMessage http = exchange.getMessage(HttpMessage.class);
        if (http.getRequest().version() == HttpVersion.HTTP_2) {
            headers.remove("Connection"); // connection-specific: a protocol error in HTTP/2 (RFC 9113, 8.2.2)
        }
        ResponseStream out = new ResponseStream(http.getResponse(), headers,
                reply::close, openStreams, cutShort, () -> metrics.firstByte(sinceArrival(exchange)));
        StringBuilder text = new StringBuilder();
        // the answer's id, in every step's start too: a v4 client names the message by its last f: part, and
        // feedback names the answer by it; its question is recorded under it already (recordQuestion)
        String messageId = thread.messageId();
        StreamedAnswer answer = null;
        boolean complete = false;
        boolean failed = false;
        List<Source> sources = new ArrayList<>(reply.sources()); // and those of the model's own searches
        try (reply) {
            // Parts are added as events come and flushed whenever the model would keep the client waiting: each
            // token of a slow model goes out the moment it arrives, and what is ready together goes as one write.
            String toolCallId = "call_" + Secrets.id(12);
            out.add(encoder.start(messageId, thread.id()));
            out.add(encoder.startStep(messageId));
            out.add(encoder.searchCall(toolCallId, search.query().question()));
            out.add(encoder.searchResult(toolCallId, search.hits()));
            out.add(encoder.finishStep("tool-calls", Usage.NONE));
            out.add(encoder.startStep(messageId));
            for (Source source : sources) {
                out.add(encoder.source(source));
            }
            if (!keepAlive.isZero() && encoder.keepAlive() != null) {
                out.keepAlive(encoder.keepAlive(), keepAlive);
            }
            boolean stepOpen = true;
            String textId = null; // the text block being written, if any
            String finishReason = ModelEvent.StepEnd.STOP;
            for (ModelEvent event = next(reply, out); event != null && out.isOpen(); event = next(reply, out)) {
                if (!stepOpen) {
                    out.add(encoder.startStep(messageId));
                    stepOpen = true;
                }
                if (event instanceof ModelEvent.Text delta) {
                    text.append(delta.delta());
                    if (textId == null) { // the block's start goes with its first delta
                        textId = "txt-" + Secrets.id(8);
                        out.add(encoder.textStart(textId));
                    }
                    out.add(encoder.textDelta(textId, delta.delta()));
                    continue;
                }
                if (textId != null) { // any other event ends the text block
                    out.add(encoder.textEnd(textId));
                    textId = null;
                }
                if (event instanceof ModelEvent.SearchCalled call) {
                    out.add(encoder.searchCall(call.toolCallId(), call.query()));
                } else if (event instanceof ModelEvent.SearchAnswered answered) {
                    out.add(encoder.searchResult(answered.toolCallId(), answered.hits()));
                    for (Source source : Source.numbered(answered.hits(), sources.size() + 1)) {
                        sources.add(source);
                        out.add(encoder.source(source));
                    }
                } else if (event instanceof ModelEvent.Notice notice) {
                    out.add(encoder.notice(notice.code(), notice.message()));
                } else if (event instanceof ModelEvent.StepEnd end) {
                    out.add(encoder.finishStep(end.finishReason(), end.usage()));
                    finishReason = end.finishReason();
                    stepOpen = false;
                }
            }
            if (out.isOpen()) { // the model is done
                if (textId != null) {
                    out.add(encoder.textEnd(textId));
                }
                if (stepOpen) {
                    out.add(encoder.finishStep(finishReason, reply.usage()));
                }
                answer = new StreamedAnswer(messageId, text.toString(), sources, reply.usage(), true);
                recordTurn.record(exchange, answer);
                out.add(encoder.finish(finishReason, reply.usage(), thread.id()));
                out.add(encoder.end());
                out.flush();
                complete = true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failed = true;
            if (out.isOpen()) {
                LOG.warn("Answer for domain '{}' failed after streaming began: {}", tenant.domainId(), e.toString());
                out.add(encoder.error("The answer was interrupted by an error. Please ask again."));
                out.add(encoder.end());
                out.flush();
            } // else the client left and closing the reply made it fail: nothing to report

        } finally {
            Usage billed = reply.billed();
            // before the end: a client's next question sees it counted
            tokenBudget.spend(tenant, billed.promptTokens(), billed.completionTokens());
            if (answer == null) { // cut short
                answer = new StreamedAnswer(messageId, text.toString(), sources, reply.usage(), false);
                recordTurn.record(exchange, answer);
            }
            out.end();
            metrics.streamEnded(sinceArrival(exchange),
                    complete ? "complete" : out.wasCut() ? "shutdown" : failed ? "error" : "client_gone");
        }
        exchange.setProperty(StepContract.ANSWER, answer);
    }

    /** The reply's next event; what was added is flushed first if the model is about to make the client wait. */
    private static ModelEvent next(ModelReply reply, ResponseStream out) throws Exception {
        if (!reply.ready()) {
            out.flush();
        }
        return reply.next();
    }

    private static Duration sinceArrival(Exchange exchange) {
        return Duration.ofMillis(exchange.getClock().elapsed());
    }
}
