package dev.docsassistant;

import java.util.Collection;
import java.util.List;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurablePropagatorProvider;

/**
 * W3C's trace context under another header, {@value #HEADER}: a propagator that is not W3C's, as B3 or Jaeger's are
 * (whose jars the service does not ship). Chosen with {@code otel.propagators=renamed_tracecontext}.
 */
public final class RenamedPropagator implements ConfigurablePropagatorProvider {

    static final String NAME = "renamed_tracecontext";
    static final String HEADER = "x-test-trace";
    private static final String W3C = "traceparent";

    @Override
    public TextMapPropagator getPropagator(ConfigProperties config) {
        TextMapPropagator w3c = W3CTraceContextPropagator.getInstance();
        return new TextMapPropagator() {
            @Override
            public Collection<String> fields() {
                return List.of(HEADER);
            }

            @Override
            public <C> void inject(Context context, C carrier, TextMapSetter<C> setter) {
                w3c.inject(context, carrier, (c, key, value) -> {
                    if (W3C.equals(key)) {
                        setter.set(c, HEADER, value);
                    }
                });
            }

            @Override
            public <C> Context extract(Context context, C carrier, TextMapGetter<C> getter) {
                return w3c.extract(context, carrier, new TextMapGetter<C>() {
                    @Override
                    public Iterable<String> keys(C c) {
                        return List.of(W3C);
                    }

                    @Override
                    public String get(C c, String key) {
                        return W3C.equals(key) ? getter.get(c, HEADER) : null;
                    }
                });
            }
        };
    }

    @Override
    public String getName() {
        return NAME;
    }
}
