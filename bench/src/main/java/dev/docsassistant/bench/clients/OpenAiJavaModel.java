package dev.docsassistant.bench.clients;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.Timeout;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import dev.docsassistant.ground.ApiException;
import dev.docsassistant.model.ChatPrompt;
import dev.docsassistant.model.ModelEvent;
import dev.docsassistant.model.ModelFailedException;
import dev.docsassistant.model.ModelReply;
import dev.docsassistant.model.ModelTimeoutException;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.UpstreamGuard;
import dev.docsassistant.model.Usage;

/**
 * {@code assistant.model.provider=openaijava}: the official OpenAI Java SDK (openai-java 4.18.0) called the way Camel
 * 4.18's camel-openai producer calls it, standing in for that component (not served here): an
 * {@code OpenAIOkHttpClient} built from the API key and base URL, {@code chat().completions().createStreaming(params)}
 * and the {@code StreamResponse}'s iterator of chunks, closed when the answer is over. Beyond what the component sets,
 * the SDK's own retries and read timeout take the service's {@code assistant.model.retries} and first-token timeout
 * (the SDK has one read timeout, before and between tokens alike), so it is measured at its best.
 */
public class OpenAiJavaModel extends LibraryModel {

    private final OpenAIClient client;

    public OpenAiJavaModel(ChatPrompt prompt, UpstreamGuard guard, String baseUrl, String apiKey, int retries,
            long readTimeoutMs) {
        super(prompt, guard, baseUrl);
        this.client = OpenAIOkHttpClient.builder().baseUrl(baseUrl).apiKey(apiKey).maxRetries(retries)
                .timeout(Timeout.builder().read(Duration.ofMillis(readTimeoutMs)).build()).build();
    }

    @Override
    ModelReply start(ObjectNode body, List<Message> messages, List<Source> sources, UpstreamGuard.Permit permit) {
        ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder()
                .model(body.path("model").asText())
                .temperature(body.path("temperature").asDouble())
                .maxCompletionTokens(body.path("max_tokens").asLong())
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()); // the token budget
        for (Message message : messages) {
            switch (message.role()) {
                case "system" -> params.addSystemMessage(message.text());
                case "assistant" -> params.addAssistantMessage(message.text());
                default -> params.addUserMessage(message.text());
            }
        }
        return new Reply(client.chat().completions().createStreaming(params.build()), sources, permit);
    }

    @Override
    Exception failure(Exception failure) {
        if (failure instanceof ApiException) {
            return failure;
        }
        if (failure instanceof OpenAIServiceException status) {
            int code = status.statusCode();
            return new ModelFailedException("The model server answered " + code, code == 429 || code >= 500);
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedIOException) {
                return new ModelTimeoutException("The model server did not answer in time");
            }
        }
        return new ModelFailedException("The model server's stream failed: " + failure.getClass().getSimpleName(),
                true);
    }

    /** The chunks' text as they come; the step's end once the stream ends. */
    private final class Reply extends LibraryReply {

        private final StreamResponse<ChatCompletionChunk> response;
        private final Iterator<ChatCompletionChunk> chunks;
        private String finishReason;
        private boolean ended;

        Reply(StreamResponse<ChatCompletionChunk> response, List<Source> sources, UpstreamGuard.Permit permit) {
            super(sources, permit);
            this.response = response;
            this.chunks = response.stream().iterator();
        }

        @Override
        public ModelEvent next() throws Exception {
            try {
                while (!ended && chunks.hasNext()) {
                    ChatCompletionChunk chunk = chunks.next();
                    chunk.usage().ifPresent(used -> usage = new Usage(used.promptTokens(), used.completionTokens()));
                    for (ChatCompletionChunk.Choice choice : chunk.choices()) {
                        choice.finishReason().ifPresent(reason -> finishReason = reason.asString());
                        String text = choice.delta().content().orElse("");
                        if (!text.isEmpty()) {
                            return new ModelEvent.Text(text);
                        }
                    }
                }
            } catch (RuntimeException e) {
                Exception failure = failure(e);
                permit.failed(failure);
                throw failure;
            }
            if (ended) {
                return null;
            }
            ended = true;
            permit.succeeded();
            return new ModelEvent.StepEnd(finishReason(finishReason), usage);
        }

        @Override
        public void close() {
            response.close();
            permit.release(); // no verdict if the stream had already settled it
        }
    }
}
