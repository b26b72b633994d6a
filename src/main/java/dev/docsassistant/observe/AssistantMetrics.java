package dev.docsassistant.observe;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.StepContract;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.micrometer.eventnotifier.MicrometerRouteEventNotifier;
import org.apache.camel.spi.EventNotifier;
import org.apache.camel.support.EventHelper;
import org.apache.camel.support.LifecycleStrategySupport;

/**
 * The service's own numbers, served with Camel's and the JVM's as Prometheus text at {@code /observe/metrics}. One
 * facade for every step, so names and tags stay consistent: each method records one event. Meters go to the registry
 * camel-micrometer-prometheus scrapes ({@code metricsRegistry}); with metrics turned off they go nowhere visible.
 * <p>
 * Tags stay bounded: {@code domain} is a configured tenant's domain (or {@code none} before authentication), never a
 * path segment a client made up. Gauges of what a step owns (open streams, index sizes) are bound by that step
 * ({@link MeterBinder}), so the metrics know no step's types.
 */
public class AssistantMetrics implements CamelContextAware {

    /** Circuit-breaker states as the {@code assistant_upstream_circuit_state} gauge reports them. */
    public enum CircuitState { CLOSED, HALF_OPEN, OPEN }

    private static final Duration[] TTFB_BUCKETS = seconds(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10);
    private static final Duration[] STREAM_BUCKETS = seconds(0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300);
    private static final Duration[] SEARCH_BUCKETS = seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1);

    private final MeterBinder indexGauges;
    private final MeterBinder streamGauges;
    private final MeterBinder storeCounters;
    private final Map<String, AtomicInteger> circuits = new ConcurrentHashMap<>();
    /**
     * The token metric's two counters per organization and domain, registered at the tenant's first answer: the
     * registry is fixed once resolved, so an answer only reads two maps and increments, with no builder, tag list or
     * registry lookup. The tags are configured names (bounded); a tenant a reload dropped keeps its entry, as the
     * registry keeps its meters.
     */
    private final Map<String, Map<String, TokenCounters>> tokenCounters = new ConcurrentHashMap<>();
    private volatile CamelContext context;
    private volatile MeterRegistry registry;

    public AssistantMetrics(MeterBinder indexGauges, MeterBinder streamGauges, MeterBinder storeCounters) {
        this.indexGauges = indexGauges;
        this.streamGauges = streamGauges;
        this.storeCounters = storeCounters;
    }

    /**
     * metrics.yaml's step ({@code ref: countRequest}, made by step-beans.yaml from this factory):
     * {@link #requestCompleted}, without a reflective call per request.
     */
    public static Processor countRequest(AssistantMetrics metrics) {
        return metrics::requestCompleted;
    }

    /** One answered request of an assistant or discovery route, by route, domain and HTTP status. */
    public void requestCompleted(Exchange exchange) {
        int status = exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE, 200, Integer.class);
        String domain = domain(exchange);
        Counter.builder("assistant.requests").description("Requests answered, by route, domain and HTTP status")
                .tag("route", String.valueOf(exchange.getFromRouteId())).tag("domain", domain)
                .tag("status", Integer.toString(status))
                .register(registry()).increment();
        String quota = exchange.getProperty(StepContract.RATE_LIMIT, String.class);
        if (quota != null && quota.startsWith("refused")) {
            Counter.builder("assistant.ratelimit.rejections").description("Requests refused for a spent quota")
                    .tag("domain", domain).register(registry()).increment();
        }
    }

    /** From the request's arrival to the first byte of its stream. */
    public void firstByte(Duration sinceArrival) {
        Timer.builder("assistant.stream.ttfb").description("Time from request to the stream's first byte")
                .serviceLevelObjectives(TTFB_BUCKETS).register(registry()).record(sinceArrival);
    }

    /** @param outcome {@code complete}, {@code error}, {@code client_gone} or {@code shutdown} */
    public void streamEnded(Duration sinceArrival, String outcome) {
        Timer.builder("assistant.stream.duration").description("Time from request to the stream's end, by outcome")
                .tag("outcome", outcome).serviceLevelObjectives(STREAM_BUCKETS).register(registry())
                .record(sinceArrival);
    }

    /** Tokens a paid model spent on one answer, by organization, domain and kind (prompt, completion). */
    public void modelTokens(Tenant tenant, long promptTokens, long completionTokens) {
        Map<String, TokenCounters> byDomain = tokenCounters.get(tenant.organizationId());
        if (byDomain == null) {
            byDomain = tokenCounters.computeIfAbsent(tenant.organizationId(), id -> new ConcurrentHashMap<>());
        }
        TokenCounters counters = byDomain.get(tenant.domainId());
        if (counters == null) {
            counters = byDomain.computeIfAbsent(tenant.domainId(),
                    id -> new TokenCounters(tokenCounter(tenant, "prompt"), tokenCounter(tenant, "completion")));
        }
        counters.prompt().increment(promptTokens);
        counters.completion().increment(completionTokens);
    }

    private Counter tokenCounter(Tenant tenant, String kind) {
        return Counter.builder("assistant.model.tokens").description("Tokens a paid model spent, prompt and completion")
                .tag("organization", tenant.organizationId()).tag("domain", tenant.domainId()).tag("kind", kind)
                .register(registry());
    }

    public void searched(String domain, Duration took) {
        Timer.builder("assistant.search.latency").description("Index search time (cache misses)")
                .tag("domain", domain).serviceLevelObjectives(SEARCH_BUCKETS).register(registry()).record(took);
    }

    // For model providers: the upstream's failures, retries and circuit breaker, by provider.

    /** @param kind what failed, e.g. {@code connect}, {@code timeout}, {@code http_503} */
    public void upstreamError(String provider, String kind) {
        Counter.builder("assistant.upstream.errors").description("Failed calls to a model server")
                .tag("provider", provider).tag("kind", kind).register(registry()).increment();
    }

    public void upstreamRetry(String provider) {
        Counter.builder("assistant.upstream.retries").description("Calls to a model server made again")
                .tag("provider", provider).register(registry()).increment();
    }

    /** 0 closed, 1 half-open, 2 open. */
    public void circuitState(String provider, CircuitState state) {
        circuits.computeIfAbsent(provider, name -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder("assistant.upstream.circuit.state", value, AtomicInteger::get)
                    .description("Circuit breaker per model server: 0 closed, 1 half-open, 2 open")
                    .tag("provider", name).register(registry());
            return value;
        }).set(state.ordinal());
    }

    private record TokenCounters(Counter prompt, Counter completion) {
    }

    private MeterRegistry registry() {
        MeterRegistry found = registry;
        if (found == null) {
            synchronized (this) {
                found = registry;
                if (found == null) {
                    found = context == null ? null
                            : context.getRegistry().lookupByNameAndType("metricsRegistry", MeterRegistry.class);
                    registry = found = found != null ? found : new SimpleMeterRegistry();
                    indexGauges.bindTo(found);
                    streamGauges.bindTo(found);
                    storeCounters.bindTo(found);
                }
            }
        }
        return found;
    }


    private static String domain(Exchange exchange) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        return tenant == null ? "none" : tenant.domainId();
    }

    private static Duration[] seconds(double... values) {
        Duration[] durations = new Duration[values.length];
        for (int i = 0; i < values.length; i++) {
            durations[i] = Duration.ofNanos((long) (values[i] * 1e9));
        }
        return durations;
    }

    @Override
    public void setCamelContext(CamelContext context) {
        this.context = context;
        context.addLifecycleStrategy(new LifecycleStrategySupport() {
            @Override
            public void onContextStarted(CamelContext started) {
                routeEventsOnly(started);
            }
        });
    }

    /**
     * camel-micrometer's route notifier (the {@code camel_routes_*} gauges) reads route events only, yet leaves
     * exchange events asked for: while it does, Camel makes an event for every exchange created and completed and
     * every send of every request, for no reader. Camel decides whether to make them as the context initializes,
     * before that notifier is in place, so it is decided again here.
     */
    private static void routeEventsOnly(CamelContext context) {
        for (EventNotifier notifier : context.getManagementStrategy().getEventNotifiers()) {
            if (notifier instanceof MicrometerRouteEventNotifier) {
                notifier.setIgnoreExchangeEvents(true);
            }
        }
        context.getCamelContextExtension().setEventNotificationApplicable(EventHelper.eventsApplicable(context));
    }

    @Override
    public CamelContext getCamelContext() {
        return context;
    }
}
