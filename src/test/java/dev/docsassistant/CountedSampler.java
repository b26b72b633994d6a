package dev.docsassistant;

import java.util.List;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSamplerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;

/**
 * The service's default sampler ({@code parentbased_traceidratio}, the ratio from {@code otel.traces.sampler.arg})
 * counting how often it is asked about each trace: every span begun, recorded or not, asks once. Chosen with
 * {@code otel.traces.sampler=counted_parentbased_traceidratio}; the SDK's autoconfiguration finds it through
 * META-INF/services.
 */
public final class CountedSampler implements ConfigurableSamplerProvider {

    static final String NAME = "counted_parentbased_traceidratio";

    private static final PerTrace ASKED = new PerTrace();

    /** How many spans of this trace were begun. */
    static int asked(String traceId) {
        return ASKED.of(traceId);
    }

    @Override
    public Sampler createSampler(ConfigProperties config) {
        Sampler sampler = Sampler.parentBased(Sampler.traceIdRatioBased(config.getDouble("otel.traces.sampler.arg", 1)));
        return new Sampler() {
            @Override
            public SamplingResult shouldSample(Context parent, String traceId, String name, SpanKind kind,
                    Attributes attributes, List<LinkData> links) {
                ASKED.count(traceId);
                return sampler.shouldSample(parent, traceId, name, kind, attributes, links);
            }

            @Override
            public String getDescription() {
                return NAME;
            }
        };
    }

    @Override
    public String getName() {
        return NAME;
    }
}
