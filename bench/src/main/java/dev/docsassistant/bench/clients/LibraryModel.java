package dev.docsassistant.bench.clients;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.model.AnswerModel;
import dev.docsassistant.model.ChatPrompt;
import dev.docsassistant.model.ModelEvent;
import dev.docsassistant.model.ModelReply;
import dev.docsassistant.model.ModelRequest;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.UpstreamGuard;
import dev.docsassistant.model.Usage;
import dev.docsassistant.search.SearchHit;

/**
 * Issue 23's evaluation: an OpenAI client library in the place of the service's own ({@code OpenAiModel}), given
 * the same prompt ({@link ChatPrompt}, one step: libraries do not run the service's search tool) behind the same
 * {@link UpstreamGuard} (concurrency cap and circuit breaker), so that only the client differs: how it calls, streams,
 * retries, times out and stops. Each subclass uses its library's own calls and settings only; it maps the library's
 * failures to the service's (502 before the first token, an error part after it).
 */
abstract class LibraryModel implements AnswerModel {

    private final ChatPrompt prompt;
    private final UpstreamGuard guard;
    private final String upstream;

    LibraryModel(ChatPrompt prompt, UpstreamGuard guard, String upstream) {
        this.prompt = prompt;
        this.guard = guard;
        this.upstream = upstream;
    }

    /** A system, user or assistant message of the prompt, its content's text parts joined. */
    record Message(String role, String text) {
    }

    @Override
    public ModelReply answer(ModelRequest request) throws Exception {
        UpstreamGuard.Permit permit = guard.enter(upstream);
        try {
            ObjectNode body = prompt.body(request, null);
            List<Message> messages = new ArrayList<>();
            for (JsonNode message : body.path("messages")) {
                JsonNode content = message.path("content");
                StringBuilder text = new StringBuilder(content.isTextual() ? content.asText() : "");
                content.findValues("text").forEach(part -> text.append(part.asText()));
                messages.add(new Message(message.path("role").asText(), text.toString()));
            }
            return start(body, messages, sources(request.search().hits()), permit);
        } catch (Exception | Error e) {
            Exception failure = e instanceof Exception exception ? failure(exception) : new IllegalStateException(e);
            permit.failed(failure);
            throw failure;
        }
    }

    /**
     * Calls the model with the library: returns once it has started answering, throwing what failed before that.
     * The reply settles {@code permit} when its stream ends, fails or is closed.
     */
    abstract ModelReply start(ObjectNode body, List<Message> messages, List<Source> sources,
            UpstreamGuard.Permit permit) throws Exception;

    /** The library's failure as the service's: a {@code ModelFailedException} or {@code ModelTimeoutException}. */
    abstract Exception failure(Exception libraryFailure);

    /** OpenAI's finish reason in the AI SDK's words, as {@link ModelEvent.StepEnd} takes it. */
    static String finishReason(String openAi) {
        return switch (openAi == null ? "" : openAi.toLowerCase()) {
            case "stop" -> ModelEvent.StepEnd.STOP;
            case "length" -> "length";
            case "content_filter" -> "content-filter";
            case "tool_calls", "tool_execution", "function_call" -> ModelEvent.StepEnd.TOOL_CALLS;
            default -> "other";
        };
    }

    private static List<Source> sources(List<SearchHit> hits) {
        List<Source> sources = new ArrayList<>();
        for (SearchHit hit : hits) {
            sources.add(new Source("src-" + (sources.size() + 1), hit.url(), hit.title()));
        }
        return sources;
    }

    /** What a library's reply holds alike: its sources, its guard's permit and the usage it reported. */
    abstract static class LibraryReply implements ModelReply {

        final List<Source> sources;
        final UpstreamGuard.Permit permit;
        volatile Usage usage = Usage.NONE;

        LibraryReply(List<Source> sources, UpstreamGuard.Permit permit) {
            this.sources = sources;
            this.permit = permit;
        }

        @Override
        public List<Source> sources() {
            return sources;
        }

        @Override
        public Usage usage() {
            return usage;
        }

        @Override
        public Usage billed() {
            return usage;
        }
    }
}
