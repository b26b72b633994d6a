package dev.docsassistant.observe;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.NamedNode;
import org.apache.camel.Processor;
import org.apache.camel.model.ModelCamelContext;
import org.apache.camel.model.ProcessDefinition;
import org.apache.camel.model.ProcessorDefinitionHelper;
import org.apache.camel.opentelemetry2.OpenTelemetryTracer;
import org.apache.camel.spi.InterceptStrategy;
import org.apache.camel.spi.PropertiesComponent;
import org.apache.camel.support.service.ServiceSupport;
import org.apache.camel.telemetry.Op;
import org.apache.camel.telemetry.TraceProcessorsInterceptStrategy;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Traces, configured the OpenTelemetry way ({@code OTEL_*} variables, {@code otel.*} properties) and off unless
 * that configuration names somewhere to send them: an OTLP endpoint, or a traces exporter other than {@code none}
 * ({@code OTEL_SDK_DISABLED=true} wins). When on, the SDK's autoconfiguration builds the exporter and Camel's own
 * tracer (camel-opentelemetry2) spans each sampled request, each step and each endpoint call, reading the caller's
 * W3C {@code traceparent} and sending one to the model server; a request not sampled makes one span, not recorded
 * ({@link SampledOnly}). When off, no Camel tracer is installed and the model's spans go to OpenTelemetry's no-op
 * tracer: no work per request.
 * <p>
 * A camel-main configuration class ({@code camel.main.configuration-classes}), so the tracer is in place before the
 * routes are built. Its tracer, Camel's too, is what the model step spans its call with ({@link #tracer}).
 */
public class Tracing implements CamelConfiguration {

    private static final String MODEL_TRACER = "modelTracer";

    private static final String INSTRUMENTATION = "docs-assistant";
    private static final String STEP = "-process";
    private static final String COUNT_REQUEST = "countRequest";
    /** The share of requests traced unless OTEL_TRACES_SAMPLER(_ARG) says otherwise. */
    static final String DEFAULT_RATIO = "0.01";

    @Override
    public void configure(CamelContext context) throws Exception {
        PropertiesComponent properties = context.getPropertiesComponent();
        if (!enabled(properties)) {
            return;
        }
        if (!SLF4JBridgeHandler.isInstalled()) { // the SDK logs through java.util.logging
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
        Map<String, String> configured = otelProperties(properties);
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                // only traces: metrics are Prometheus' (/observe/metrics), logs go to stdout
                .addPropertiesSupplier(() -> Map.of("otel.service.name", context.getName(),
                        "otel.metrics.exporter", "none", "otel.logs.exporter", "none",
                        "otel.exporter.otlp.protocol", "http/protobuf", // the SDK's own default is gRPC
                        // a trace of every answer would cost a third of the service's throughput (BENCHMARKS.md);
                        // a caller's sampled traceparent is still followed
                        "otel.traces.sampler", "parentbased_traceidratio",
                        "otel.traces.sampler.arg", DEFAULT_RATIO))
                // otel.* set as Camel properties (application.properties, Camel K's -p); variables still win
                .addPropertiesSupplier(() -> configured)
                .addSamplerCustomizer((sampler, config) -> new UntracedTimers(sampler))
                .addTracerProviderCustomizer((provider, config) -> provider.addSpanProcessor(new StepNames(context)))
                .disableShutdownHook() // flushed when Camel stops, below
                .build()
                .getOpenTelemetrySdk();
        // camel-opentelemetry2 takes the tracer (the only one in the registry) and propagators from the registry
        context.getRegistry().bind(MODEL_TRACER, Tracer.class, sdk.getTracer(INSTRUMENTATION));
        context.getRegistry().bind("tracePropagators", ContextPropagators.class, sdk.getPropagators());
        context.addService(new ServiceSupport() {
            @Override
            protected void doStop() {
                sdk.shutdown().join(10, TimeUnit.SECONDS);
            }
        }, true, false);
        SampledOnly tracer = new SampledOnly(sdk.getPropagators());
        tracer.setTraceProcessors(true);
        tracer.init(context);
        // Camel wraps every processor of every route to ask, on each call, whether to span it: only the pipeline's
        // steps are asked (decided once, as the routes are built)
        List<InterceptStrategy> strategies = context.getCamelContextExtension().getInterceptStrategies();
        strategies.removeIf(TraceProcessorsInterceptStrategy.class::isInstance);
        strategies.add(new StepsOnly(new TraceProcessorsInterceptStrategy(tracer)));
    }

    /**
     * Camel's tracer, for sampled requests only. Camel spans each route, endpoint call and step of a request and asks
     * the sampler at each, so a request not sampled costs nearly what a traced one does (BENCHMARKS.md). Here an
     * exchange's span that is not sampled (its first, with a parent-based sampler) makes everything under it in that
     * exchange take the untraced path: no span, no header copy, no scope. It stays current, so the request's log
     * lines carry its trace id and its calls out carry its {@code traceparent} (flags {@code 00}); it ends with the
     * span that began it. Begin and end calls come in nested pairs per exchange (Camel's own span stack relies on
     * it), so a depth counter finds that end; a copy of the exchange (wire tap, split) shares the mark but not the
     * counter, and spans nothing either.
     */
    private static final class SampledOnly extends OpenTelemetryTracer {

        private static final String UNSAMPLED = "dev.docsassistant.unsampled";

        private final TextMapPropagator propagator;

        SampledOnly(ContextPropagators propagators) {
            this.propagator = propagators.getTextMapPropagator();
        }

        @Override
        protected void beginEventSpan(Exchange exchange, Endpoint endpoint, Op op) throws Exception {
            Unsampled unsampled = exchange.getProperty(UNSAMPLED, Unsampled.class);
            if (unsampled == null) {
                super.beginEventSpan(exchange, endpoint, op);
                if (!Span.current().getSpanContext().isSampled()) { // the span just begun, made current by Camel
                    exchange.setProperty(UNSAMPLED, new Unsampled(exchange, Context.current()));
                }
                return;
            }
            if (unsampled.owner == exchange) {
                unsampled.depth++;
            }
            if (op == Op.EVENT_SENT) { // a call out joins the request's trace, unsampled
                propagator.inject(unsampled.context, exchange.getIn(), Message::setHeader);
            }
        }

        @Override
        protected void endEventSpan(Exchange exchange, Endpoint endpoint) throws Exception {
            Unsampled unsampled = exchange.getProperty(UNSAMPLED, Unsampled.class);
            if (unsampled == null) {
                super.endEventSpan(exchange, endpoint);
            } else if (unsampled.owner == exchange) {
                if (unsampled.depth-- == 0) { // the end of the span that was not sampled
                    exchange.removeProperty(UNSAMPLED);
                    super.endEventSpan(exchange, endpoint);
                }
            }
        }

        @Override
        protected void beginProcessorSpan(Exchange exchange, String processorName) throws Exception {
            if (exchange.getProperty(UNSAMPLED) == null) {
                super.beginProcessorSpan(exchange, processorName);
            }
        }

        @Override
        protected void endProcessorSpan(Exchange exchange, String processorName) throws Exception {
            if (exchange.getProperty(UNSAMPLED) == null) {
                super.endProcessorSpan(exchange, processorName);
            }
        }

        /** The mark of an exchange whose spans are not sampled: its context, and how deep the skipped calls are. */
        private static final class Unsampled {
            final Exchange owner;
            final Context context;
            int depth;

            Unsampled(Exchange owner, Context context) {
                this.owner = owner;
                this.context = context;
            }
        }
    }

    /**
     * Spans the pipeline's steps (beans, named {@code id-process}), not the glue between them (unmarshal, enrich,
     * filter…). Counting the request (metrics.yaml) runs once it is answered, after its span: not spanned.
     */
    private record StepsOnly(InterceptStrategy traced) implements InterceptStrategy {

        @Override
        public Processor wrapProcessorInInterceptors(CamelContext context, NamedNode definition, Processor target,
                Processor nextTarget) throws Exception {
            if (definition instanceof ProcessDefinition step && step.getRef() != null
                    && !COUNT_REQUEST.equals(step.getId())) {
                return traced.wrapProcessorInInterceptors(context, definition, target, nextTarget);
            }
            return target;
        }
    }

    /** The tracer for the service's own spans: the SDK's when tracing is on, else the no-op one. */
    public static Tracer tracer(CamelContext context) {
        Tracer tracer = context.getRegistry().lookupByNameAndType(MODEL_TRACER, Tracer.class);
        return tracer != null ? tracer : OpenTelemetry.noop().getTracer(INSTRUMENTATION);
    }

    /**
     * Names a step's span after the bean it runs ({@code authenticate}, {@code invokeModel}…) rather than Camel's
     * generated node id ({@code process14-process}), so a slow answer points at its step.
     */
    private static final class StepNames implements SpanProcessor {

        private final ModelCamelContext context;
        private final Map<String, String> names = new ConcurrentHashMap<>();

        StepNames(CamelContext context) {
            this.context = (ModelCamelContext) context;
        }

        @Override
        public void onStart(Context parent, ReadWriteSpan span) {
            if (span.getName().endsWith(STEP)) {
                span.updateName(names.computeIfAbsent(span.getName(), this::stepName));
            }
        }

        private String stepName(String spanName) {
            String id = spanName.substring(0, spanName.length() - STEP.length());
            if (!(context.getProcessorDefinition(id) instanceof ProcessDefinition step) || step.getRef() == null) {
                return spanName;
            }
            // a route template names a step's bean by its parameter ({{stream}}): the route's value of it
            String ref = step.getRef();
            Map<String, Object> parameters = ProcessorDefinitionHelper.getRoute(step).getTemplateParameters();
            if (ref.startsWith("{{") && ref.endsWith("}}") && parameters != null) {
                return String.valueOf(parameters.getOrDefault(ref.substring(2, ref.length() - 2), ref));
            }
            return ref;
        }

        @Override
        public boolean isStartRequired() {
            return true;
        }

        @Override
        public void onEnd(ReadableSpan span) {
        }

        @Override
        public boolean isEndRequired() {
            return false;
        }
    }

    /**
     * Keeps the housekeeping routes (index loading, tenants reload every few seconds: Camel's timer routes) out of
     * the traces: their root spans are not sampled, and with them, under a parent-based sampler, their steps.
     */
    private record UntracedTimers(Sampler sampler) implements Sampler {

        @Override
        public SamplingResult shouldSample(Context parent, String traceId, String name, SpanKind kind,
                Attributes attributes, List<LinkData> links) {
            if ("timer".equals(name) && !Span.fromContext(parent).getSpanContext().isValid()) {
                return SamplingResult.drop();
            }
            return sampler.shouldSample(parent, traceId, name, kind, attributes, links);
        }

        @Override
        public String getDescription() {
            return "UntracedTimers{" + sampler.getDescription() + "}";
        }
    }

    /** On when an exporter is configured and the SDK is not disabled. */
    static boolean enabled(PropertiesComponent properties) {
        if (Boolean.parseBoolean(value(properties, "otel.sdk.disabled"))) {
            return false;
        }
        String exporter = value(properties, "otel.traces.exporter");
        if (exporter != null) {
            return !exporter.isBlank() && !"none".equals(exporter.strip());
        }
        return value(properties, "otel.exporter.otlp.endpoint") != null
                || value(properties, "otel.exporter.otlp.traces.endpoint") != null;
    }

    /** A property, from Camel's sources or its {@code OTEL_*} variable; null when unset or empty. */
    private static String value(PropertiesComponent properties, String key) {
        return properties.resolveProperty(key).filter(v -> !v.isBlank()).orElse(null);
    }

    private static Map<String, String> otelProperties(PropertiesComponent properties) {
        Properties loaded = properties.loadProperties(key -> key.startsWith("otel."));
        return loaded.stringPropertyNames().stream()
                .collect(Collectors.toMap(key -> key, loaded::getProperty));
    }
}
