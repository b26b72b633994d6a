package dev.docsassistant.observe;

import java.util.Collection;
import java.util.List;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.DelegatingSpanData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.apache.camel.telemetry.TagConstants;

/**
 * Camel's spans as OpenTelemetry's semantic conventions expect them, rewritten as they are exported (on the
 * exporter's thread, for the sampled requests only, so the requests pay nothing for it). Camel's span API sets
 * string tags on spans of kind INTERNAL: a request's span ({@link ServerSpan}) becomes kind SERVER with its status as
 * the integer {@code http.response.status_code}; the tags Camel puts on every route and step span under names of no
 * convention ({@code op}, {@code component}, {@code exchangeId}, and {@code url.scheme}/{@code url.path} that name an
 * endpoint, not a URL) move under {@code camel.}. The service's own spans (the model call) pass as they are.
 */
final class Conventions implements SpanExporter {

    /** The tag Camel sets on every span it makes (the event: received, sent, process). */
    private static final AttributeKey<String> CAMEL_OP = AttributeKey.stringKey("op");
    private static final AttributeKey<String> ROUTE = AttributeKey.stringKey(ServerSpan.ROUTE);
    private static final String CAMEL_STATUS = TagConstants.HTTP_STATUS;
    private static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    private static final String CAMEL = "camel.";
    /** A request span's tags that are the conventions' already. */
    private static final List<String> SERVER_KEYS = List.of(ServerSpan.METHOD, ServerSpan.ROUTE, ServerSpan.PATH,
            ServerSpan.SCHEME, ServerSpan.CLIENT, ServerSpan.ERROR_TYPE);

    private final SpanExporter exporter;

    Conventions(SpanExporter exporter) {
        this.exporter = exporter;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        return exporter.export(spans.stream().map(Conventions::conventional).toList());
    }

    static SpanData conventional(SpanData span) {
        if (span.getAttributes().get(CAMEL_OP) == null) {
            return span; // the service's own
        }
        boolean server = span.getAttributes().get(ROUTE) != null;
        AttributesBuilder attributes = Attributes.builder();
        span.getAttributes().forEach((key, value) -> {
            String name = key.getKey();
            if (server && CAMEL_STATUS.equals(name)) {
                attributes.put(STATUS, Long.parseLong(value.toString()));
            } else if (name.startsWith(CAMEL) || server && SERVER_KEYS.contains(name)) {
                put(attributes, key, value);
            } else {
                attributes.put(CAMEL + name, value.toString());
            }
        });
        Attributes renamed = attributes.build();
        SpanKind kind = server ? SpanKind.SERVER : span.getKind();
        return new DelegatingSpanData(span) {
            @Override
            public SpanKind getKind() {
                return kind;
            }

            @Override
            public Attributes getAttributes() {
                return renamed;
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static void put(AttributesBuilder attributes, AttributeKey<?> key, Object value) {
        attributes.put((AttributeKey<Object>) key, value);
    }

    @Override
    public CompletableResultCode flush() {
        return exporter.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
        return exporter.shutdown();
    }
}
