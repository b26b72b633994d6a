package dev.docsassistant.observe;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.IdGenerator;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import org.apache.camel.AsyncCallback;
import org.apache.camel.AsyncProcessor;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.EndpointAware;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.NamedNode;
import org.apache.camel.Processor;
import org.apache.camel.model.ModelCamelContext;
import org.apache.camel.model.ProcessDefinition;
import org.apache.camel.model.ProcessorDefinitionHelper;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.opentelemetry2.OpenTelemetryTracer;
import org.apache.camel.spi.EndpointServiceLocation;
import org.apache.camel.spi.EventNotifier;
import org.apache.camel.spi.InterceptStrategy;
import org.apache.camel.spi.PropertiesComponent;
import org.apache.camel.support.AsyncProcessorConverterHelper;
import org.apache.camel.support.processor.DelegateAsyncProcessor;
import org.apache.camel.support.service.ServiceSupport;
import org.apache.camel.telemetry.Op;
import org.apache.camel.telemetry.SpanDecorator;
import org.apache.camel.telemetry.SpanDecoratorManager;
import org.apache.camel.telemetry.SpanDecoratorManagerImpl;
import org.apache.camel.telemetry.TraceProcessorsInterceptStrategy;

/**
 * Traces, configured the OpenTelemetry way ({@code OTEL_*} variables, {@code otel.*} properties) and off unless
 * that configuration names somewhere to send them: an OTLP endpoint, or a traces exporter other than {@code none}
 * ({@code OTEL_SDK_DISABLED=true} wins). When on, the SDK's autoconfiguration builds the exporter and Camel's own
 * tracer (camel-opentelemetry2) spans each sampled request, each step and each endpoint call, reading the caller's
 * W3C {@code traceparent} and sending one to the model server; a request not sampled is decided before Camel spans it
 * and takes Camel's untraced path ({@link SampledOnly}). When off, no Camel tracer is installed and the model's spans
 * go to OpenTelemetry's no-op tracer: no work per request.
 * <p>
 * A camel-main configuration class ({@code camel.main.configuration-classes}), so the tracer is in place before the
 * routes are built. Its tracer, Camel's too, is what the model step spans its call with ({@link #tracer}).
 */
public class Tracing implements CamelConfiguration {

    private static final String MODEL_TRACER = "modelTracer";
    /** Camel's tracer extracts a new exchange's parent with these: the SDK's, as configured ({@code OTEL_PROPAGATORS}). */
    private static final String PROPAGATORS = "tracePropagators";

    private static final String INSTRUMENTATION = "docs-assistant";
    private static final String STEP = "-process";
    private static final String COUNT_REQUEST = "countRequest";
    private static final AttributeKey<String> SERVICE_VERSION = AttributeKey.stringKey("service.version");
    private static final AttributeKey<String> SERVICE_INSTANCE = AttributeKey.stringKey("service.instance.id");
    /** Written by the build (src/main/resources-filtered). */
    private static final String BUILD = "/docs-assistant-build.properties";
    /** The share of requests traced unless OTEL_TRACES_SAMPLER(_ARG) says otherwise. */
    static final String DEFAULT_RATIO = "0.01";

    @Override
    public void configure(CamelContext context) throws Exception {
        PropertiesComponent properties = context.getPropertiesComponent();
        if (!enabled(properties)) {
            return;
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
                .addSamplerCustomizer((sampler, config) -> new Decided(new UntracedTimers(sampler)))
                .addTracerProviderCustomizer((provider, config) -> provider.addSpanProcessor(new StepNames(context)))
                .addSpanExporterCustomizer((exporter, config) -> new Conventions(exporter))
                // this build and this process; OTEL_RESOURCE_ATTRIBUTES still win
                .addResourceCustomizer((resource, config) -> Resource.create(Attributes.of(SERVICE_VERSION, version(),
                        SERVICE_INSTANCE, UUID.randomUUID().toString())).merge(resource))
                .disableShutdownHook() // flushed when Camel stops, below
                .build()
                .getOpenTelemetrySdk();
        // camel-opentelemetry2 takes the tracer (the only one in the registry) and propagators from the registry
        context.getRegistry().bind(MODEL_TRACER, Tracer.class, sdk.getTracer(INSTRUMENTATION));
        context.getRegistry().bind(PROPAGATORS, ContextPropagators.class, sdk.getPropagators());
        context.addService(new ServiceSupport() {
            @Override
            protected void doStop() {
                sdk.shutdown().join(10, TimeUnit.SECONDS);
            }
        }, true, false);
        SampledOnly tracer = new SampledOnly(sdk.getPropagators(), sdk.getSdkTracerProvider().getSampler());
        tracer.setTraceProcessors(true);
        List<EventNotifier> others = List.copyOf(context.getManagementStrategy().getEventNotifiers());
        tracer.init(context);
        // Camel's tracer spans endpoint calls from exchange events, and with a notifier installed Camel makes events
        // for every exchange and send of every request, sampled or not. Without it a trace is the routes' and steps'
        // spans, and a call that leaves the process is sent its context by SendsContext below.
        for (EventNotifier notifier : List.copyOf(context.getManagementStrategy().getEventNotifiers())) {
            if (!others.contains(notifier)) {
                context.getManagementStrategy().removeEventNotifier(notifier);
            }
        }
        // Camel wraps every processor of every route to ask, on each call, whether to span it: only the pipeline's
        // steps are asked (decided once, as the routes are built)
        List<InterceptStrategy> strategies = context.getCamelContextExtension().getInterceptStrategies();
        strategies.removeIf(TraceProcessorsInterceptStrategy.class::isInstance);
        strategies.add(new StepsOnly(new TraceProcessorsInterceptStrategy(tracer), sdk.getPropagators()));
    }

    /**
     * Camel's tracer, for sampled requests only. Camel spans each route and step of a request and asks the sampler at
     * each, so a request not sampled costs nearly what a traced one does (BENCHMARKS.md). Here an exchange's first
     * span is decided before Camel builds it, from the request alone: the sampler is asked with the parent read from
     * the request's {@code traceparent} (or the current context, as Camel does) and a new trace id. Sampled, Camel
     * spans the exchange and the SDK keeps that decision for its first span ({@link Decided}). Not sampled, the
     * exchange is marked and takes the untraced path: no span object, header copy, decorator tags or scope of
     * Camel's, for any route or step of it. Its context, a span id that is not recorded, is current while it runs, so
     * its log lines carry the trace id and a call that leaves the process is sent it ({@link SendsContext}, flags
     * {@code 00}). Begin and end calls come in nested pairs per exchange (Camel's own span stack relies on it), so a
     * depth counter finds the end of its first; a copy of the exchange (wire tap, split) shares the mark but not the
     * counter, and spans nothing either. A new exchange the request makes (the model call's) is not decided again:
     * it joins the request's context ({@link Tracing#join}).
     */
    private static final class SampledOnly extends OpenTelemetryTracer {

        private static final String DECISION = "dev.docsassistant.sampled";
        /** The value of {@link #DECISION} on an exchange that Camel spans. */
        private static final Object SAMPLED = new Object();
        /**
         * The baggage entry Camel's spans carry, and the key of this tracer's context for an exchange not sampled: a
         * current context holding either is a scope left open by an exchange that ended elsewhere, not a parent.
         */
        private static final String CAMEL_SCOPE = "camelScope";
        private static final ContextKey<Boolean> OURS = ContextKey.named("dev.docsassistant.unsampled");
        private static final TextMapGetter<Message> HEADERS = new TextMapGetter<>() {
            @Override
            public Iterable<String> keys(Message message) {
                return message.getHeaders().keySet();
            }

            @Override
            public String get(Message message, String key) {
                return message != null && message.getHeader(key) instanceof String value ? value : null;
            }
        };

        private final TextMapPropagator propagator;
        private final Sampler sampler;
        private final IdGenerator ids = IdGenerator.random();
        private final SpanDecoratorManager decorators = new SpanDecoratorManagerImpl();
        /** By the endpoints exchanges begin at (the routes' consumers): Camel's manager parses the URI per call. */
        private final Map<Endpoint, SpanDecorator> decoratorByEndpoint = new ConcurrentHashMap<>();

        SampledOnly(ContextPropagators propagators, Sampler sampler) {
            this.propagator = propagators.getTextMapPropagator();
            this.sampler = sampler;
        }

        @Override
        protected void beginEventSpan(Exchange exchange, Endpoint endpoint, Op op) throws Exception {
            Object decision = exchange.getProperty(DECISION);
            if (decision == null) {
                decide(exchange, endpoint, op);
            } else if (decision == SAMPLED) {
                super.beginEventSpan(exchange, endpoint, op);
            } else if (decision instanceof Context joined) { // a new exchange of a request not sampled
                exchange.setProperty(DECISION, new Unsampled(exchange, joined.makeCurrent()));
            } else {
                Unsampled unsampled = (Unsampled) decision;
                if (unsampled.owner == exchange) {
                    unsampled.depth++;
                }
            }
        }

        /** The exchange's first span: the sampler's decision, taken once for it. */
        private void decide(Exchange exchange, Endpoint endpoint, Op op) throws Exception {
            Context current = Context.current();
            Context base = current.get(OURS) == null && Baggage.fromContext(current).getEntryValue(CAMEL_SCOPE) == null
                    ? current : Context.root();
            Context parent = propagator.extract(base, exchange.getIn(), HEADERS);
            SpanContext parentSpan = Span.fromContext(parent).getSpanContext();
            String traceId = parentSpan.isValid() ? parentSpan.getTraceId() : ids.generateTraceId();
            String name = decoratorByEndpoint.computeIfAbsent(endpoint, decorators::get)
                    .getOperationName(exchange, endpoint);
            SamplingResult result = sampler.shouldSample(parent, traceId, name, SpanKind.INTERNAL, Attributes.empty(),
                    List.of());
            if (result.getDecision() == SamplingDecision.DROP) {
                Context context = parent.with(OURS, true).with(Span.wrap(SpanContext.create(traceId,
                        ids.generateSpanId(), TraceFlags.getDefault(),
                        result.getUpdatedTraceState(parentSpan.getTraceState()))));
                exchange.setProperty(DECISION, new Unsampled(exchange, context.makeCurrent()));
                return;
            }
            exchange.setProperty(DECISION, SAMPLED);
            Decided.NEXT.set(result);
            try {
                super.beginEventSpan(exchange, endpoint, op);
            } finally {
                Decided.NEXT.remove();
            }
        }

        @Override
        protected void endEventSpan(Exchange exchange, Endpoint endpoint) throws Exception {
            if (!(exchange.getProperty(DECISION) instanceof Unsampled unsampled)) {
                super.endEventSpan(exchange, endpoint);
            } else if (unsampled.owner == exchange && unsampled.depth-- == 0) { // the end of the exchange's first
                exchange.removeProperty(DECISION);
                unsampled.scope.close();
            }
        }

        static boolean unsampled(Exchange exchange) {
            return exchange.getProperty(DECISION) instanceof Unsampled;
        }

        /** The mark of an exchange not sampled: its context's scope, and how deep the skipped calls are. */
        private static final class Unsampled {
            final Exchange owner;
            final Scope scope;
            int depth;

            Unsampled(Exchange owner, Scope scope) {
                this.owner = owner;
                this.scope = scope;
            }
        }
    }

    /**
     * The SDK's sampler, keeping the decision {@link SampledOnly} took for the span Camel begins next on this thread
     * (an exchange's first, sampled), so a request is decided once: asked again, a ratio sampler would decide anew
     * on the SDK's own trace id.
     */
    private record Decided(Sampler sampler) implements Sampler {

        static final ThreadLocal<SamplingResult> NEXT = new ThreadLocal<>();

        @Override
        public SamplingResult shouldSample(Context parent, String traceId, String name, SpanKind kind,
                Attributes attributes, List<LinkData> links) {
            SamplingResult decided = NEXT.get();
            if (decided == null) {
                return sampler.shouldSample(parent, traceId, name, kind, attributes, links);
            }
            NEXT.remove();
            return decided;
        }

        @Override
        public String getDescription() {
            return sampler.getDescription();
        }
    }

    /**
     * Spans the pipeline's steps (beans, named {@code id-process}), not the glue between them (unmarshal, enrich,
     * filter…), and only for a sampled exchange: one not sampled runs the step itself, without Camel's wrapper.
     * Counting the request (metrics.yaml) runs once it is answered, after its span: not spanned. A call that leaves
     * the process (a {@code to} an {@link EndpointServiceLocation}: the model server) is sent the current context.
     */
    private record StepsOnly(InterceptStrategy traced, ContextPropagators propagators) implements InterceptStrategy {

        @Override
        public Processor wrapProcessorInInterceptors(CamelContext context, NamedNode definition, Processor target,
                Processor nextTarget) throws Exception {
            if (definition instanceof ProcessDefinition step && step.getRef() != null
                    && !COUNT_REQUEST.equals(step.getId())) {
                return new SampledStep(target,
                        AsyncProcessorConverterHelper.convert(
                                traced.wrapProcessorInInterceptors(context, definition, target, nextTarget)));
            }
            if (target instanceof EndpointAware send && send.getEndpoint() instanceof EndpointServiceLocation) {
                return new SendsContext(target, propagators.getTextMapPropagator());
            }
            return target;
        }
    }

    /**
     * Sets the current trace context (a sampled request's innermost span, or the context of one not sampled) on the
     * message a call sends, for the server it calls: its W3C {@code traceparent}, and no baggage: neither Camel's own
     * entry nor whatever a caller put in its {@code baggage} header goes to a third party.
     */
    private static final class SendsContext extends DelegateAsyncProcessor {

        private final TextMapPropagator propagator;

        SendsContext(Processor send, TextMapPropagator propagator) {
            super(send);
            this.propagator = propagator;
        }

        @Override
        public boolean process(Exchange exchange, AsyncCallback callback) {
            propagator.inject(Context.current().with(Baggage.empty()), exchange.getIn(), Message::setHeader);
            return processor.process(exchange, callback);
        }
    }

    /** A step that Camel's tracer spans when its exchange is sampled. */
    private static final class SampledStep extends DelegateAsyncProcessor {

        private final AsyncProcessor spanned;

        SampledStep(Processor step, AsyncProcessor spanned) {
            super(step);
            this.spanned = spanned;
        }

        @Override
        public boolean process(Exchange exchange, AsyncCallback callback) {
            return SampledOnly.unsampled(exchange) ? processor.process(exchange, callback)
                    : spanned.process(exchange, callback);
        }
    }

    /**
     * Joins {@code exchange}, new and about to run on this thread within a request (the model call's), to that
     * request's trace: a sampled request's current span becomes its parent (Camel does not link a new exchange to
     * the one that made it, but reads its parent from its headers, with the configured propagators; no baggage, as
     * for {@link SendsContext}); one not sampled is decided already, so the new exchange takes its context and
     * Camel's untraced path without asking the sampler again. With tracing off it does nothing.
     */
    public static void join(Exchange exchange) {
        Context current = Context.current();
        if (current.get(SampledOnly.OURS) != null) {
            exchange.setProperty(SampledOnly.DECISION, current);
        } else if (Span.fromContext(current).getSpanContext().isSampled()) {
            exchange.getContext().getRegistry().lookupByNameAndType(PROPAGATORS, ContextPropagators.class)
                    .getTextMapPropagator().inject(current.with(Baggage.empty()), exchange.getMessage(),
                            Message::setHeader);
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
            // a step of a route configuration (an error handler's) belongs to no route
            RouteDefinition route = ProcessorDefinitionHelper.getRoute(step);
            Map<String, Object> parameters = route == null ? null : route.getTemplateParameters();
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

    /** The project's version, as the build wrote it. */
    static String version() {
        Properties build = new Properties();
        try (InputStream in = Tracing.class.getResourceAsStream(BUILD)) {
            if (in == null) {
                throw new IllegalStateException("The build did not write " + BUILD);
            }
            build.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return build.getProperty("version");
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
