package dev.docsassistant.custom;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.StampedLock;
import java.util.function.Supplier;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.RoutesBuilder;
import org.apache.camel.ServiceStatus;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.kamelet.Kamelet;
import org.apache.camel.component.kamelet.KameletComponent;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.model.RouteDefinitionHelper;
import org.apache.camel.spi.Resource;
import org.apache.camel.support.LifecycleStrategySupport;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.apache.camel.support.RouteWatcherReloadStrategy;
import org.apache.camel.util.URISupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The route files of {@code assistant.routes-dir}, which fail closed. At start a file whose routes cannot be created
 * stops the service from starting (Camel's own check). Whenever a file changes it is checked before it loads (a bad
 * edit is logged, {@code ERROR}, and the file's previous version keeps running): it must parse, and every {@code kamelet:} it calls must exist, be given
 * its required parameters, and each parameter its Kamelet declares {@code format: regex} must compile as the Kamelet
 * runs it ({@link QuestionPattern}). What is checked is what loads (a snapshot, not the file read again), and should
 * the new version still fail to start, the previous one is put back. While a file's routes are being replaced,
 * {@link CustomSteps} waits ({@link #steady}), so no request runs a slot without one of its steps.
 * <p>
 * Installed by camel-main as a configuration class (application.properties), in place of camel-main's own route
 * watcher, which it extends: a changed file replaces only its own routes, so the pipeline keeps its open streams.
 */
public class StepFiles extends RouteWatcherReloadStrategy implements CamelConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(StepFiles.class);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** The version of each file that runs, by location: what a failed reload puts back. */
    private final Map<String, Resource> running = new ConcurrentHashMap<>();
    /**
     * Held (write) while routes are replaced; a slot's steps are listed under an optimistic read, or the read lock
     * should a reload overlap it (a read lock per slot per request made every request thread write the lock's word).
     */
    private final StampedLock replacing = new StampedLock();
    /**
     * Every route of the context that is an own step ({@code direct:assistant-step-…}), by endpoint URI: a route is in
     * from its warm-up (before it starts) until it is removed, stopping alone leaves it in. A new list at each change.
     */
    private volatile List<Route> steps = List.of();

    @Override
    public void configure(CamelContext context) throws Exception {
        context.addService(this);
        // before the context starts: every route's warm-up comes after
        context.addLifecycleStrategy(new LifecycleStrategySupport() {
            @Override
            public void onRoutesAdd(Collection<Route> routes) {
                changeSteps(routes, true);
            }

            @Override
            public void onRoutesRemove(Collection<Route> routes) {
                changeSteps(routes, false);
            }
        });
    }

    /** The routes that are own steps, by endpoint URI; the same list until one is added or removed. */
    List<Route> steps() {
        return steps;
    }

    private synchronized void changeSteps(Collection<Route> routes, boolean added) {
        List<Route> now = new ArrayList<>(steps);
        for (Route route : routes) {
            if (route.getEndpoint().getEndpointUri().startsWith(CustomSteps.PREFIX)) {
                now.remove(route);
                if (added) {
                    now.add(route);
                }
            }
        }
        now.sort(Comparator.comparing(route -> route.getEndpoint().getEndpointUri()));
        steps = List.copyOf(now);
    }

    /**
     * Watches {@code assistant.routes-dir}, if set (read now: override properties are not in yet when configuration
     * classes run). Its files were loaded with the bundled routes, and had the context failed to create a route of
     * theirs (a bad pattern, a missing parameter, an unknown Kamelet) it would not be starting: what they hold now is
     * each file's running version.
     */
    @Override
    protected void doStart() throws Exception {
        String folder = getCamelContext().getPropertiesComponent().resolveProperty("assistant.routes-dir").orElse("")
                .trim();
        if (folder.isEmpty()) {
            return;
        }
        Path dir = Path.of(folder).toAbsolutePath().normalize();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".yaml")).toList()) {
                Resource snapshot = snapshot(ResourceHelper.resolveResource(getCamelContext(), "file:" + file));
                running.put(snapshot.getLocation(), snapshot);
            }
        }
        setFolder(dir.toString());
        setPattern("*.yaml");
        setRemoveAllRoutes(false);
        super.doStart();
    }

    /**
     * Runs {@code listing} while no file's routes are being replaced: a slot listed then holds every step it had
     * before the reload or every step it has after it. {@code listing} may run twice (once more under the read lock
     * when a reload overlapped it), so it has no side effect; what it returns of an overlapped run is dropped.
     */
    <T> T steady(Supplier<T> listing) {
        long stamp = replacing.tryOptimisticRead();
        if (stamp != 0) {
            T listed = listing.get();
            if (replacing.validate(stamp)) {
                return listed;
            }
        }
        stamp = replacing.readLock();
        try {
            return listing.get();
        } finally {
            replacing.unlockRead(stamp);
        }
    }

    @Override
    protected void onRouteReload(Collection<Resource> resources, boolean removeEverything) {
        if (resources == null) { // a properties file changed: every route again, as Camel does
            super.onRouteReload(null, removeEverything);
            return;
        }
        long stamp = replacing.writeLock();
        try {
            for (Resource changed : resources) {
                reload(changed, removeEverything);
            }
        } finally {
            replacing.unlockWrite(stamp);
        }
    }

    private void reload(Resource changed, boolean removeEverything) {
        Resource snapshot;
        try {
            snapshot = snapshot(changed);
        } catch (IOException e) { // deleted: its routes stay until a restart, as the guide says
            return;
        }
        try {
            check(snapshot);
        } catch (Exception e) {
            refused(snapshot, e);
            return;
        }
        RuntimeException failure = null;
        try {
            super.onRouteReload(List.of(snapshot), removeEverything);
        } catch (RuntimeException e) {
            failure = e;
        }
        List<String> notStarted = notStarted(snapshot);
        if (notStarted.isEmpty() && failure == null) {
            running.put(snapshot.getLocation(), snapshot);
            return;
        }
        refused(snapshot, new IllegalStateException("its routes " + notStarted + " did not start"
                + (failure == null ? "" : ": " + failure.getMessage()), failure));
        Resource previous = running.get(snapshot.getLocation());
        if (previous != null) {
            super.onRouteReload(List.of(previous), removeEverything);
        } else { // a new file that never ran: it leaves nothing behind
            for (Route route : routesOf(snapshot)) {
                try {
                    getCamelContext().getRouteController().stopRoute(route.getRouteId());
                    getCamelContext().removeRoute(route.getRouteId());
                } catch (Exception e) {
                    LOG.error("Could not remove route {} of {}", route.getRouteId(), snapshot.getLocation(), e);
                }
            }
        }
    }

    private static void refused(Resource file, Exception cause) {
        LOG.error("Own steps file {} not loaded, its previous version (if any) keeps running: {}", file.getLocation(),
                cause.getMessage());
    }

    /** The file's content now, under its own location: checked and loaded alike. */
    private static Resource snapshot(Resource file) throws IOException {
        try (var in = file.getInputStream()) {
            return ResourceHelper.fromBytes(file.getLocation(), in.readAllBytes());
        }
    }

    private List<Route> routesOf(Resource file) {
        return getCamelContext().getRoutes().stream()
                .filter(route -> route.getSourceResource() != null
                        && file.getLocation().equals(route.getSourceResource().getLocation()))
                .toList();
    }

    /** The ids of the file's routes that are not running (or not there at all). */
    private List<String> notStarted(Resource file) {
        List<String> ids = new ArrayList<>();
        for (String id : routeIds(file)) {
            ServiceStatus status = getCamelContext().getRouteController().getRouteStatus(id);
            if (status != ServiceStatus.Started) {
                ids.add(id);
            }
        }
        return ids;
    }

    private List<String> routeIds(Resource file) {
        try {
            return definitions(file).stream().map(RouteDefinition::getRouteId).filter(id -> id != null).toList();
        } catch (Exception e) {
            return List.of(); // checked before it loaded
        }
    }

    /** The file's route definitions, parsed as Camel loads them, without adding them to the context. */
    private List<RouteDefinition> definitions(Resource file) throws Exception {
        List<RouteDefinition> routes = new ArrayList<>();
        for (RoutesBuilder builder : PluginHelper.getRoutesLoader(getCamelContext()).findRoutesBuilders(List.of(file))) {
            if (builder instanceof RouteBuilder routeBuilder) {
                routes.addAll(routeBuilder.configureRoutes(getCamelContext()).getRoutes());
            }
        }
        return routes;
    }

    /** Whether the file can load as it is: throws, naming what is wrong, if not. */
    void check(Resource file) throws Exception {
        for (RouteDefinition route : definitions(file)) {
            Set<String> uris = RouteDefinitionHelper.gatherAllEndpointUris(getCamelContext(), route, true, true, true);
            for (String uri : uris) {
                String resolved = getCamelContext().resolvePropertyPlaceholders(uri);
                if (resolved.startsWith(Kamelet.SCHEME + ":")) {
                    checkKamelet(resolved);
                }
            }
        }
    }

    /** A Kamelet call: the Kamelet exists, has its required parameters, and its patterns compile. */
    private void checkKamelet(String uri) throws Exception {
        String rest = uri.substring(Kamelet.SCHEME.length() + 1);
        rest = rest.startsWith("//") ? rest.substring(2) : rest; // as Camel normalises it
        int query = rest.indexOf('?');
        String path = query < 0 ? rest : rest.substring(0, query);
        String name = path.contains("/") ? path.substring(0, path.indexOf('/')) : path;
        if (name.equals(Kamelet.SOURCE_ID) || name.equals(Kamelet.SINK_ID)) {
            return;
        }
        Map<String, Object> parameters = new HashMap<>(query < 0 ? Map.of()
                : URISupport.parseQuery(rest.substring(query + 1), false, true));
        // Camel hands the URI over normalised, its values percent-encoded (RAW() ones as written)
        parameters.replaceAll((key, value) -> value instanceof String text && !text.startsWith("RAW")
                ? URLDecoder.decode(text, StandardCharsets.UTF_8) : value);
        URISupport.resolveRawParameterValues(parameters);
        Kamelet.extractKameletProperties(getCamelContext(), parameters, name);
        JsonNode definition = kamelet(name).path("spec").path("definition");
        JsonNode properties = definition.path("properties");
        for (JsonNode required : definition.path("required")) {
            String parameter = required.asText();
            if (!parameters.containsKey(parameter) && !properties.path(parameter).has("default")) {
                throw new IllegalArgumentException("kamelet:" + name + " needs the parameter '" + parameter + "'");
            }
        }
        for (Map.Entry<String, Object> parameter : parameters.entrySet()) {
            if ("regex".equals(properties.path(parameter.getKey()).path("format").asText())) {
                try {
                    QuestionPattern.compile(String.valueOf(parameter.getValue()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("kamelet:" + name + " parameter '" + parameter.getKey()
                            + "': " + e.getMessage(), e);
                }
            }
        }
    }

    /** The Kamelet's definition, from the first of the kamelet component's locations that has it. */
    private JsonNode kamelet(String name) throws Exception {
        String locations = getCamelContext().getComponent(Kamelet.SCHEME, KameletComponent.class).getLocation();
        for (String location : (locations == null ? Kamelet.DEFAULT_LOCATION : locations).split(",")) {
            Resource definition = PluginHelper.getResourceLoader(getCamelContext())
                    .resolveResource(location.trim() + "/" + name + ".kamelet.yaml");
            if (definition != null && definition.exists()) {
                try (var in = definition.getInputStream()) {
                    return YAML.readTree(in);
                }
            }
        }
        throw new IllegalArgumentException("there is no Kamelet named '" + name + "' (kamelet:" + name + ")");
    }
}
