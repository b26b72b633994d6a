package dev.docsassistant.model;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attributes of an answer's model-call span, named after OpenTelemetry's GenAI and HTTP conventions where they
 * have one. The span runs from the first request to the end of the stream; the HTTP calls (retries, further steps)
 * are its children.
 */
final class ModelSpan {

    static final AttributeKey<String> MODEL = AttributeKey.stringKey("gen_ai.request.model");
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
