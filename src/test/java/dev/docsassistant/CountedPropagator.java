package dev.docsassistant;

import java.util.Collection;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurablePropagatorProvider;

/**
 * W3C trace context ({@code tracecontext}) counting how often the service injects each trace's context into a
 * message: every Camel message it is set on, sent in or out of the process. Chosen with
 * {@code otel.propagators=counted_tracecontext}; the SDK's autoconfiguration finds it through META-INF/services.
 */
public final class CountedPropagator implements ConfigurablePropagatorProvider {

    static final String NAME = "counted_tracecontext";

    private static final PerTrace INJECTED = new PerTrace();

    /** How many messages this trace's context was set on. */
    static int injected(String traceId) {
        return INJECTED.of(traceId);
    }

    @Override
    public TextMapPropagator getPropagator(ConfigProperties config) {
        TextMapPropagator w3c = W3CTraceContextPropagator.getInstance();
        return new TextMapPropagator() {
            @Override
            public Collection<String> fields() {
                return w3c.fields();
            }

            @Override
            public <C> void inject(Context context, C carrier, TextMapSetter<C> setter) {
                INJECTED.count(Span.fromContext(context).getSpanContext().getTraceId());
                w3c.inject(context, carrier, setter);
            }

            @Override
            public <C> Context extract(Context context, C carrier, TextMapGetter<C> getter) {
                return w3c.extract(context, carrier, getter);
            }
        };
    }

    @Override
    public String getName() {
        return NAME;
    }
}
