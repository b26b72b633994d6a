package dev.docsassistant.model;

import java.util.List;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attributes of an answer's model-call span, a CLIENT span named {@code chat {model}} by OpenTelemetry's GenAI
 * conventions, and its HTTP ones where they have one; the service's own under {@code assistant.model.}. The span runs
 * from the first request to the end of the stream; the HTTP calls (retries, further steps) are its children.
 */
final class ModelSpan {

    /** The conventions' operation: the span's name is it and the requested model. */
    static final String CHAT = "chat";
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    /** The API spoken: an OpenAI-compatible server (vLLM, Ollama…) is called as OpenAI is. */
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    static final String OPENAI = "openai";
    static final AttributeKey<String> MODEL = AttributeKey.stringKey("gen_ai.request.model");
    /** The answer's last response: its model as the server names it, its id and why it stopped. */
    static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    static final AttributeKey<String> RESPONSE_ID = AttributeKey.stringKey("gen_ai.response.id");
    static final AttributeKey<List<String>> FINISH_REASONS =
            AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    /** The model server's last status. */
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    /** Attempts after the first before the model started answering. */
    static final AttributeKey<Long> RETRIES = AttributeKey.longKey("assistant.model.retries");
    /** From the first request to the first token, retries included. */
    static final AttributeKey<Long> FIRST_TOKEN_MS = AttributeKey.longKey("assistant.model.first_token_ms");

    private ModelSpan() {
    }
}
