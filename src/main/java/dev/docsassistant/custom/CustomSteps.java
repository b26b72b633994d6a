package dev.docsassistant.custom;

import java.util.List;
import java.util.stream.Collectors;

import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Predicate;
import org.apache.camel.Route;
import org.apache.camel.ServiceStatus;
import org.apache.camel.support.ExpressionAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of the pipeline's own-steps slots: every route that reads from {@code direct:assistant-step-<slot>-<name>}
 * runs there, in name order, on the request's exchange. The slots are {@code before-search}, {@code before-model}
 * and {@code after-answer}; a step whose name starts with none of them ({@code direct:assistant-step-<name>}) runs
 * after validation. A step is a route file in {@code assistant.routes-dir}, so adding, editing or reloading one
 * changes behaviour without Java and without touching (or stopping) the pipeline route that holds the open streams.
 * The routing slip's expression ({@code ref: customSteps…}), evaluated per request without reflection; as a
 * predicate, whether the slot has any step.
 */
public class CustomSteps extends ExpressionAdapter implements Predicate {

    private static final Logger LOG = LoggerFactory.getLogger(CustomSteps.class);
    static final String PREFIX = "direct://assistant-step-";
    /** The named slots; a step's name starting with one of them puts it there. */
    static final List<String> SLOTS = List.of("before-search", "before-model", "after-answer");

    /** The slot's name prefix, {@code <slot>-}; null for after validation. */
    private final String slot;
    /** The context's route files (the bean serves one context), looked up once. */
    private volatile StepFiles files;
    /** The slot's steps, picked from the last list of every step {@link StepFiles#steps} gave. */
    private volatile Picked picked = new Picked(null, List.of(), "", null);

    /** The slot's steps and its slip, picked from {@code all}; {@code stopped}, one that is not running, or null. */
    private record Picked(List<Route> all, List<Route> steps, String slip, Route stopped) {
    }

    /** The after-validation slot: the steps whose name names no other slot. */
    public CustomSteps() {
        this.slot = null;
    }

    /** @param slot one of {@link #SLOTS} */
    public CustomSteps(String slot) {
        if (!SLOTS.contains(slot)) {
            throw new IllegalArgumentException("No own-steps slot '" + slot + "'; the slots are " + SLOTS);
        }
        this.slot = slot + "-";
    }

    @Override
    public Object evaluate(Exchange exchange) {
        return slip(exchange.getContext());
    }

    @Override
    public boolean matches(Exchange exchange) {
        return !slip(exchange.getContext()).isEmpty();
    }

    /**
     * The routing slip: the slot's steps' endpoints in name order, comma-separated; empty when there is none. Listed
     * while no step file is being replaced ({@link StepFiles}); a step that is not running refuses the request (503)
     * rather than be left out: a guard never silently stops guarding. The steps are picked again only when the
     * routes that are steps changed; whether each runs is asked on every request.
     */
    private String slip(CamelContext context) {
        StepFiles routeFiles = files;
        if (routeFiles == null) {
            routeFiles = context.hasService(StepFiles.class);
            if (routeFiles == null) { // camel.main.configuration-classes names it: without it, no request passes
                throw new IllegalStateException(StepFiles.class.getName() + " is not installed");
            }
            files = routeFiles;
        }
        StepFiles steady = routeFiles;
        Picked slot = steady.steady(() -> running(context, pick(steady.steps())));
        if (slot.stopped() != null) {
            // the route id is the operator's: logged, never sent
            LOG.error("Own step {} is not running: the request is refused (503)", slot.stopped().getRouteId());
            throw new StepUnavailableException();
        }
        return slot.slip();
    }

    private Picked pick(List<Route> all) {
        Picked known = picked;
        if (known.all() != all) {
            List<Route> steps = all.stream().filter(route -> inSlot(route.getEndpoint().getEndpointUri())).toList();
            known = new Picked(all, steps, steps.stream().map(route -> route.getEndpoint().getEndpointUri())
                    .collect(Collectors.joining(",")), null);
            picked = known;
        }
        return known;
    }

    /** The slot as picked, or, if one of its steps is not running, with that step. */
    private static Picked running(CamelContext context, Picked slot) {
        for (Route step : slot.steps()) {
            if (context.getRouteController().getRouteStatus(step.getRouteId()) != ServiceStatus.Started) {
                return new Picked(slot.all(), slot.steps(), slot.slip(), step);
            }
        }
        return slot;
    }

    private boolean inSlot(String uri) {
        if (!uri.startsWith(PREFIX)) {
            return false;
        }
        String name = uri.substring(PREFIX.length());
        if (slot != null) {
            return name.startsWith(slot);
        }
        return SLOTS.stream().noneMatch(named -> name.startsWith(named + "-"));
    }
}
