package dev.docsassistant.model;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;

/**
 * Sets the headers of a chat-completions call, after the route has removed every other one: JSON in, an event
 * stream out, the API key ({@code Authorization: Bearer …}, or Azure's {@code api-key} header when an
 * {@code api-version} is set), the configured extra headers, and Azure's {@code api-version} query parameter.
 */
public class ChatCompletionsRequest implements Processor {

    private final String apiKey;
    private final Map<String, String> extraHeaders;
    private final String query;

    /**
     * @param extraHeaders {@code Name=value} pairs separated by commas, e.g. {@code OpenAI-Organization=org-1}
     * @param apiVersion   Azure OpenAI's {@code api-version}; empty for every other server
     */
    public ChatCompletionsRequest(String apiKey, String extraHeaders, String apiVersion) {
        this.apiKey = apiKey == null ? "" : apiKey.strip();
        this.extraHeaders = parse(extraHeaders);
        this.query = apiVersion == null || apiVersion.isBlank() ? null
                : "api-version=" + URLEncoder.encode(apiVersion.strip(), StandardCharsets.UTF_8);
    }

    @Override
    public void process(Exchange exchange) {
        Message message = exchange.getMessage();
        message.setHeader(Exchange.HTTP_METHOD, "POST");
        message.setHeader(Exchange.CONTENT_TYPE, "application/json");
        message.setHeader("Accept", "text/event-stream");
        if (!apiKey.isEmpty()) {
            if (query != null) {
                message.setHeader("api-key", apiKey);
            } else {
                message.setHeader("Authorization", "Bearer " + apiKey);
            }
        }
        extraHeaders.forEach(message::setHeader);
        if (query != null) {
            message.setHeader(Exchange.HTTP_QUERY, query);
        }
    }

    private static Map<String, String> parse(String headers) {
        Map<String, String> parsed = new LinkedHashMap<>();
        if (headers == null || headers.isBlank()) {
            return parsed;
        }
        for (String pair : headers.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("assistant.model.headers: expected Name=value, got '"
                        + pair.strip() + "'");
            }
            parsed.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
        }
        return Map.copyOf(parsed);
    }
}
