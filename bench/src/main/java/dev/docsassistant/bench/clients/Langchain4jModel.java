package dev.docsassistant.bench.clients;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.ground.ApiException;
import dev.docsassistant.model.ChatPrompt;
import dev.docsassistant.model.ModelEvent;
import dev.docsassistant.model.ModelFailedException;
import dev.docsassistant.model.ModelReply;
import dev.docsassistant.model.ModelTimeoutException;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.UpstreamGuard;
import dev.docsassistant.model.Usage;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.model.output.TokenUsage;

/**
 * {@code assistant.model.provider=langchain4j}: langchain4j-open-ai 1.11's {@code OpenAiStreamingChatModel} (its
 * default JDK HTTP client), with the service's base URL, key, model, temperature, most tokens and, as
 * its one timeout, the first-token timeout. Its handler's callbacks are queued for the stream step, which pulls them;
 * closing the reply cancels the stream through the handle the library gives with each partial response.
 */
public class Langchain4jModel extends LibraryModel {

    private final OpenAiStreamingChatModel model;

    public Langchain4jModel(ChatPrompt prompt, UpstreamGuard guard, String baseUrl, String apiKey, String modelName,
            double temperature, int maxTokens, long timeoutMs) {
        super(prompt, guard, baseUrl);
        this.model = OpenAiStreamingChatModel.builder().baseUrl(baseUrl).apiKey(apiKey).modelName(modelName)
                .temperature(temperature).maxTokens(maxTokens)
                .timeout(Duration.ofMillis(timeoutMs)).build();
    }

    @Override
    ModelReply start(ObjectNode body, List<Message> messages, List<Source> sources, UpstreamGuard.Permit permit)
            throws Exception {
        List<ChatMessage> chat = new ArrayList<>();
        for (Message message : messages) {
            chat.add(switch (message.role()) {
                case "system" -> SystemMessage.from(message.text());
                case "assistant" -> AiMessage.from(message.text());
                default -> UserMessage.from(message.text());
            });
        }
        Reply reply = new Reply(sources, permit);
        model.chat(ChatRequest.builder().messages(chat).build(), reply);
        reply.awaitStart();
        return reply;
    }

    @Override
    Exception failure(Exception failure) {
        if (failure instanceof ApiException) {
            return failure;
        }
        if (failure instanceof HttpException status) {
            int code = status.statusCode();
            return new ModelFailedException("The model server answered " + code, code == 429 || code >= 500);
        }
        if (failure instanceof TimeoutException || failure.getCause() instanceof java.net.http.HttpTimeoutException) {
            return new ModelTimeoutException("The model server did not answer in time");
        }
        return new ModelFailedException("The model server's stream failed: " + failure.getClass().getSimpleName(),
                true);
    }

    /** The handler's callbacks, in order, as events; the first one is awaited before the reply is returned. */
    private final class Reply extends LibraryReply implements StreamingChatResponseHandler {

        private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        private volatile StreamingHandle handle;
        private volatile boolean closed;
        private Object started;
        private boolean ended;

        Reply(List<Source> sources, UpstreamGuard.Permit permit) {
            super(sources, permit);
        }

        @Override
        public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
            handle = context.streamingHandle();
            if (closed) {
                handle.cancel();
            }
            events.add(new ModelEvent.Text(partial.text()));
        }

        @Override
        public void onCompleteResponse(ChatResponse response) {
            events.add(response);
        }

        @Override
        public void onError(Throwable error) {
            events.add(error);
        }

        /** Throws what failed before the first token. */
        void awaitStart() throws Exception {
            started = events.take();
            if (started instanceof Throwable error) {
                throw error instanceof Exception exception ? exception : new IllegalStateException(error);
            }
        }

        @Override
        public ModelEvent next() throws Exception {
            if (ended) {
                return null;
            }
            Object event = started != null ? started : events.take();
            started = null;
            if (event instanceof ModelEvent.Text text) {
                return text;
            }
            ended = true;
            if (event instanceof Throwable error) {
                Exception failure = failure(error instanceof Exception exception ? exception
                        : new IllegalStateException(error));
                permit.failed(failure);
                throw failure;
            }
            ChatResponse response = (ChatResponse) event;
            TokenUsage used = response.tokenUsage();
            if (used != null) {
                usage = new Usage(used.inputTokenCount() == null ? 0 : used.inputTokenCount(),
                        used.outputTokenCount() == null ? 0 : used.outputTokenCount());
            }
            permit.succeeded();
            return new ModelEvent.StepEnd(finishReason(response.finishReason() == null ? null
                    : response.finishReason().name()), usage);
        }

        @Override
        public void close() {
            closed = true;
            StreamingHandle current = handle;
            if (current != null) {
                current.cancel();
            }
            events.add(new ModelFailedException("closed", false)); // wakes a next() that waits
            permit.release();
        }
    }
}
