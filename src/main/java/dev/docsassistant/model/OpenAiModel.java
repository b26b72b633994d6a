package dev.docsassistant.model;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.observe.Tracing;
import dev.docsassistant.request.Attachment;
import dev.docsassistant.search.DomainIndexes;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.SearchQuery;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code assistant.model.provider=openai}: any server speaking OpenAI's chat-completions API (OpenAI, Azure
 * OpenAI, vLLM, Ollama, llama.cpp, LiteLLM). Admits the call ({@link UpstreamGuard}), builds the grounded prompt
 * ({@link ChatPrompt}), and returns once the model has started answering ({@link ChatCompletions}), so failures
 * until then are still plain HTTP errors. While the upstream's circuit is open it answers with the extractive
 * model and says so in a notice, or refuses at once ({@code assistant.model.circuit.when-open}).
 */
public class OpenAiModel implements AnswerModel, CamelContextAware {

    private static final Logger LOG = LoggerFactory.getLogger(OpenAiModel.class);
    private static final String SEARCH_TOOL = """
            {"type": "function", "function": {"name": "search",
             "description": "Search this documentation site. Returns excerpts with their titles and URLs, best first.",
             "parameters": {"type": "object", "required": ["query"],
              "properties": {"query": {"type": "string", "description": "What to look for, in the docs' words"}}}}}
            """;

    private final ChatCompletions completions;
    private final ChatPrompt prompt;
    private final UpstreamGuard guard;
    private final AnswerModel fallback;
    private final DomainIndexes indexes;
    private final String upstream;
    private final int maxSteps;
    private final boolean fallBackWhenOpen;
    private final ObjectNode searchTool;
    private CamelContext context;
    private volatile Tracer tracer;

    /**
     * The server's circuit breaker, and who answers while it is open.
     *
     * @param upstream the server's base URL: the circuit breaker's name
     * @param whenOpen {@code fallback} (the {@code fallback} model answers) or {@code fail} (503)
     */
    public record Circuit(UpstreamGuard guard, String upstream, String whenOpen, AnswerModel fallback) {

        public Circuit {
            if (!"fallback".equals(whenOpen) && !"fail".equals(whenOpen)) {
                throw new IllegalArgumentException("assistant.model.circuit.when-open must be fallback or fail, not '"
                        + whenOpen + "'");
            }
        }
    }

    /** @param maxSteps model calls per answer; above 1 the model may search the docs itself between them */
    public OpenAiModel(ChatCompletions completions, ChatPrompt prompt, Circuit circuit, DomainIndexes indexes,
            int maxSteps) throws Exception {
        this.completions = completions;
        this.prompt = prompt;
        this.guard = circuit.guard();
        this.fallback = circuit.fallback();
        this.indexes = indexes;
        this.upstream = circuit.upstream();
        this.maxSteps = Math.max(1, maxSteps);
        this.fallBackWhenOpen = "fallback".equals(circuit.whenOpen());
        this.searchTool = (ObjectNode) ChatPrompt.JSON.readTree(SEARCH_TOOL);
    }

    @Override
    public ModelReply answer(ModelRequest request) throws Exception {
        UpstreamGuard.Permit permit;
        try {
            permit = guard.enter(upstream);
        } catch (UpstreamGuard.CircuitOpenException open) {
            if (!fallBackWhenOpen) {
                throw open;
            }
            LOG.debug("Circuit open for {}: answering from the documentation alone", upstream);
            return new NoticedReply(new ModelEvent.Notice("model_unavailable", "The language model is "
                    + "unavailable right now, so this answer quotes the documentation directly."),
                    fallback.answer(request));
        }
        Span span = modelSpan();
        long started = System.nanoTime();
        try (Scope ignored = span.makeCurrent()) { // the HTTP calls' spans are its children
            ChatPrompt.Built built = prompt.build(request, maxSteps > 1 ? searchTool : null);
            ObjectNode body = built.body();
            String model = body.path("model").asText();
            span.setAttribute(ModelSpan.MODEL, model).updateName(ModelSpan.CHAT + " " + model);
            ChatCompletionChunks first = completions.open(ChatPrompt.JSON.writeValueAsBytes(body),
                    request.cancellation());
            span.setAttribute(ModelSpan.FIRST_TOKEN_MS, (System.nanoTime() - started) / 1_000_000);
            // a one-step answer never sends its request again: not held for the stream's life (the excerpts are KBs)
            return new OpenAiReply(completions, first, ChatPrompt.tokens(body), maxSteps > 1 ? body : null, prompt,
                    query -> search(request, query), maxSteps, permit, Source.numbered(built.given(), 1),
                    request.cancellation(), span);
        } catch (Exception | Error e) {
            permit.failed(e);
            span.recordException(e).setStatus(StatusCode.ERROR).end();
            throw e;
        }
    }

    /**
     * The span of a sampled request's model call; else the current, non-recording one: a request not sampled has no
     * span of Camel's (the tracing's decision, taken once at its start), so one here would be an orphan nobody
     * exports, and the SDK's span builder (ids, the sampler, an attribute map) would be paid on every answer.
     */
    private Span modelSpan() {
        Span current = Span.current();
        if (!current.getSpanContext().isSampled()) {
            return current;
        }
        return tracer().spanBuilder(ModelSpan.CHAT).setSpanKind(SpanKind.CLIENT)
                .setAttribute(ModelSpan.OPERATION, ModelSpan.CHAT).setAttribute(ModelSpan.PROVIDER, ModelSpan.OPENAI)
                .startSpan();
    }

    /**
     * Spans each answer's model call, from the request to the stream's end ({@link ModelSpan}): the no-op tracer
     * unless tracing is on. Looked up at the first answer: the YAML beans are first read before {@link Tracing} runs.
     */
    private Tracer tracer() {
        Tracer current = tracer;
        if (current == null) {
            current = Tracing.tracer(context);
            tracer = current;
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

    /** Images go to the model by their URL (OpenAI's image_url parts); a data: text file is inlined (ChatPrompt). */
    @Override
    public boolean reads(Attachment attachment) {
        return attachment.isImage() || attachment.isInlineText();
    }

    /** A search the model asked for, with the reader's version, language and groups. */
    private List<SearchHit> search(ModelRequest request, String query) {
        SearchQuery asked = request.search().query();
        return indexes.index(request.tenant().domainId()).search(new SearchQuery(query, "", "", asked.language(),
                asked.version(), asked.groups(), asked.currentPath(), asked.pageSize(), 0));
    }
}
