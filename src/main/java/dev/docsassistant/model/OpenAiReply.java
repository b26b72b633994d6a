package dev.docsassistant.model;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.ground.Secrets;
import dev.docsassistant.search.SearchHit;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;

/**
 * An answer streamed from an OpenAI-compatible server, turned into {@link ModelEvent}s chunk by chunk: each content
 * delta becomes a text event the moment it is read. When the model calls the {@code search} tool (and steps are
 * left), the search runs, its call and result become events of that step, and the conversation goes back to the
 * server with the result for the next step, cut to what the prompt budget leaves; the last allowed step is asked to
 * answer without tools. A step the server reported no usage for (it does not report it, or the stream was cut,
 * the client having left) counts the prompt's estimate and the text received, so usage is never understated to zero.
 */
final class OpenAiReply implements ModelReply {

    private final ChatCompletions completions;
    private final ObjectNode body;
    private final ChatPrompt prompt;
    private final Function<String, List<SearchHit>> search;
    private final int maxSteps;
    private final UpstreamGuard.Permit permit;
    private final List<Source> sources;
    private final Cancellation cancellation;
    private final Span span;
    private final ArrayDeque<ModelEvent> pending = new ArrayDeque<>();
    private final Map<Integer, ToolCall> toolCalls = new TreeMap<>();
    private final StringBuilder stepText = new StringBuilder();
    private volatile ChatCompletionChunks chunks;
    private volatile boolean closed;
    private int step = 1;
    private boolean finished;
    private String finishReason;
    private String responseId;
    private String responseModel;
    private Usage stepUsage = Usage.NONE;
    /** The estimated prompt of the step being read; 0 between steps. */
    private long stepPromptTokens;
    private long promptTokens;
    private long completionTokens;

    /**
     * @param first             the first step's stream, already answering
     * @param firstPromptTokens the estimated tokens of the request that started it
     * @param body              that request, with the search tool, for the next steps; null when {@code maxSteps} is 1
     */
    OpenAiReply(ChatCompletions completions, ChatCompletionChunks first, long firstPromptTokens, ObjectNode body,
            ChatPrompt prompt, Function<String, List<SearchHit>> search, int maxSteps, UpstreamGuard.Permit permit,
            List<Source> sources, Cancellation cancellation, Span span) {
        this.completions = completions;
        this.chunks = first;
        this.stepPromptTokens = firstPromptTokens;
        this.body = body;
        this.prompt = prompt;
        this.search = search;
        this.maxSteps = maxSteps;
        this.permit = permit;
        this.sources = sources;
        this.cancellation = cancellation;
        this.span = span;
    }

    @Override
    public List<Source> sources() {
        return sources;
    }

    @Override
    public ModelEvent next() throws Exception {
        try {
            while (pending.isEmpty()) {
                if (finished || closed) {
                    return null;
                }
                if (chunks == null) {
                    stepPromptTokens = ChatPrompt.tokens(body);
                    try (Scope ignored = span.makeCurrent()) { // the step's HTTP call is a child of the model call
                        chunks = completions.open(ChatPrompt.JSON.writeValueAsBytes(body), cancellation);
                    }
                }
                ChatCompletionChunk chunk = chunks.next();
                if (chunk == null) {
                    endStep();
                } else {
                    read(chunk);
                }
            }
            return pending.poll();
        } catch (Exception e) {
            if (closed) {
                throw new IOException("The reply was closed", e);
            }
            Exception failure = e instanceof IOException
                    ? new ModelFailedException("The language model's stream broke off: " + e.getMessage(), true) : e;
            permit.failed(failure);
            span.recordException(failure).setStatus(StatusCode.ERROR);
            throw failure;
        }
    }

    @Override
    public boolean ready() {
        ChatCompletionChunks open = chunks;
        return !pending.isEmpty() || finished || closed || open != null && open.ready();
    }

    private void read(ChatCompletionChunk chunk) {
        if (chunk.usage() != null) {
            stepUsage = chunk.usage();
        }
        if (!chunk.content().isEmpty()) {
            stepText.append(chunk.content());
            pending.add(new ModelEvent.Text(chunk.content()));
        }
        if (chunk.toolCalls() != null) {
            for (JsonNode fragment : chunk.toolCalls()) {
                ToolCall call = toolCalls.computeIfAbsent(fragment.path("index").asInt(0), i -> new ToolCall());
                if (fragment.hasNonNull("id")) {
                    call.id = fragment.get("id").asText();
                }
                call.name.append(fragment.path("function").path("name").asText(""));
                call.arguments.append(fragment.path("function").path("arguments").asText(""));
            }
        }
        if (chunk.finishReason() != null) {
            finishReason = chunk.finishReason();
        }
        responseId = chunk.responseId();
        responseModel = chunk.responseModel();
    }

    private void endStep() throws JsonProcessingException {
        if (!chunks.completed() && finishReason == null) {
            throw new ModelFailedException("The language model's stream broke off mid-answer", true);
        }
        chunks.close();
        chunks = null;
        if (stepUsage.equals(Usage.NONE)) {
            stepUsage = estimatedStepUsage();
        }
        promptTokens += stepUsage.promptTokens();
        completionTokens += stepUsage.completionTokens();
        stepPromptTokens = 0;
        if (!toolCalls.isEmpty() && step < maxSteps) {
            searchAndContinue();
            return;
        }
        pending.add(new ModelEvent.StepEnd(finishReason(finishReason), stepUsage));
        if (responseId != null) {
            span.setAttribute(ModelSpan.RESPONSE_ID, responseId);
        }
        if (responseModel != null) {
            span.setAttribute(ModelSpan.RESPONSE_MODEL, responseModel);
        }
        if (finishReason != null) {
            span.setAttribute(ModelSpan.FINISH_REASONS, List.of(finishReason));
        }
        finished = true;
        permit.succeeded();
    }

    /** Runs the searches the model asked for and queues the next step with their results. */
    private void searchAndContinue() throws JsonProcessingException {
        ArrayNode messages = (ArrayNode) body.get("messages");
        ObjectNode assistant = messages.addObject().put("role", "assistant");
        if (stepText.isEmpty()) {
            assistant.putNull("content");
        } else {
            assistant.put("content", stepText.toString());
        }
        ArrayNode calls = assistant.putArray("tool_calls");
        for (ToolCall call : toolCalls.values()) {
            String id = call.id != null ? call.id : "call_" + Secrets.id(12);
            calls.addObject().put("id", id).put("type", "function").putObject("function")
                    .put("name", call.name.toString()).put("arguments", call.arguments.toString());
            List<SearchHit> hits;
            String result;
            if ("search".equals(call.name.toString())) {
                String query = ChatPrompt.JSON.readTree(call.arguments.isEmpty() ? "{}" : call.arguments.toString())
                        .path("query").asText("");
                ChatPrompt.ToolResult given = prompt.toolResult(body, search.apply(query));
                result = given.text();
                pending.add(new ModelEvent.SearchCalled(id, query));
                pending.add(new ModelEvent.SearchAnswered(id, given.given()));
            } else {
                result = "There is no tool named " + call.name + "; only search.";
            }
            messages.addObject().put("role", "tool").put("tool_call_id", id).put("content", result);
        }
        pending.add(new ModelEvent.StepEnd(ModelEvent.StepEnd.TOOL_CALLS, stepUsage));
        step++;
        if (step == maxSteps) {
            body.put("tool_choice", "none"); // the last step answers
        }
        toolCalls.clear();
        stepText.setLength(0);
        finishReason = null;
        stepUsage = Usage.NONE;
    }

    /** OpenAI's finish reasons in the AI SDK's words. */
    private static String finishReason(String openAi) {
        if (openAi == null) {
            return "unknown";
        }
        return switch (openAi) {
            case "stop" -> ModelEvent.StepEnd.STOP;
            case "length" -> "length";
            case "content_filter" -> "content-filter";
            case "tool_calls", "function_call" -> ModelEvent.StepEnd.TOOL_CALLS;
            default -> "other";
        };
    }

    /** Usage so far; a step cut short counts its estimate. */
    @Override
    public Usage usage() {
        Usage open = stepPromptTokens > 0 ? estimatedStepUsage() : Usage.NONE;
        return new Usage(promptTokens + open.promptTokens(), completionTokens + open.completionTokens());
    }

    @Override
    public Usage billed() {
        return usage();
    }

    private Usage estimatedStepUsage() {
        long calls = toolCalls.values().stream().mapToLong(c -> ChatPrompt.tokens(c.name + " " + c.arguments)).sum();
        return new Usage(stepPromptTokens, ChatPrompt.tokens(stepText.toString()) + calls);
    }

    @Override
    public void close() {
        if (!closed) {
            // plain counters only: a client that leaves closes the reply from the event loop while the stream's
            // thread may still be appending a step's text; a step cut short counts its prompt, not its estimate
            span.setAttribute(ModelSpan.INPUT_TOKENS, promptTokens + stepPromptTokens)
                    .setAttribute(ModelSpan.OUTPUT_TOKENS, completionTokens).end();
        }
        closed = true;
        cancellation.cancel(); // stops a step that is starting
        ChatCompletionChunks open = chunks;
        if (open != null) {
            open.close();
        }
        permit.release();
    }

    /** A tool call assembled from its streamed fragments. */
    private static final class ToolCall {
        String id;
        final StringBuilder name = new StringBuilder();
        final StringBuilder arguments = new StringBuilder();
    }
}
