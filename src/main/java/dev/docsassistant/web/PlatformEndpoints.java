package dev.docsassistant.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.camel.CamelContext;
import org.apache.camel.component.platform.http.PlatformHttpEndpoint;

/**
 * The platform-http endpoints the routes declare, matched against a request path: which methods a path allows
 * (for {@code Allow} and preflights) and what its {@code {domain}} is. Read from the running routes, so a route file
 * added later (a v2 endpoint, say) is covered without listing it here.
 */
final class PlatformEndpoints {

    private static final Pattern PARAMETER = Pattern.compile("\\{([^/}]+)}");

    /**
     * Each path template compiled once, on first use: this runs for every preflight, 404 and 405. Keyed by what the
     * routes declare, never by a request path, so it holds one entry per template a route file has ever had.
     */
    private static final Map<TemplateKey, Template> TEMPLATES = new ConcurrentHashMap<>();

    /** A declared endpoint whose path matches: its methods (empty for any) and its path parameters. */
    record Match(Set<String> methods, Map<String, String> parameters) {
    }

    private record TemplateKey(String path, boolean matchOnUriPrefix) {
    }

    /** A path template ({@code /v1/search/{domain}}, {@code /*}) as a regex, with its parameters' names in order. */
    record Template(Pattern regex, List<String> names) {

        private static Template compile(TemplateKey key) {
            String template = key.path();
            List<String> names = PARAMETER.matcher(template).results().map(r -> r.group(1)).toList();
            StringBuilder regex = new StringBuilder();
            int last = 0;
            Matcher parameter = PARAMETER.matcher(template);
            while (parameter.find()) {
                regex.append(Pattern.quote(template.substring(last, parameter.start()))).append("([^/]+)");
                last = parameter.end();
            }
            String tail = template.substring(last);
            boolean prefix = key.matchOnUriPrefix() || tail.endsWith("*");
            regex.append(Pattern.quote(tail.endsWith("*") ? tail.substring(0, tail.length() - 1) : tail));
            if (prefix) {
                regex.append(".*");
            }
            return new Template(Pattern.compile(regex.toString()), names);
        }

        /** The path's parameters by name, or null if the path does not match. */
        Map<String, String> parameters(String path) {
            Matcher matcher = regex.matcher(path);
            if (!matcher.matches()) {
                return null;
            }
            Map<String, String> parameters = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                parameters.put(names.get(i), matcher.group(i + 1));
            }
            return parameters;
        }
    }

    private PlatformEndpoints() {
    }

    static List<Match> matching(CamelContext context, String path) {
        return context.getEndpoints().stream()
                .filter(PlatformHttpEndpoint.class::isInstance)
                .map(PlatformHttpEndpoint.class::cast)
                .map(endpoint -> match(endpoint, path))
                .filter(Objects::nonNull)
                .toList();
    }

    /** The methods a path answers (with OPTIONS for the preflight), ignoring catch-all preflight routes. */
    static Set<String> allowedMethods(CamelContext context, String path) {
        Set<String> methods = new TreeSet<>();
        for (Match match : matching(context, path)) {
            if (!match.methods().equals(Set.of("OPTIONS"))) {
                methods.addAll(match.methods());
            }
        }
        if (!methods.isEmpty()) {
            methods.add("OPTIONS");
        }
        return methods;
    }

    /** The compiled form of a path template, the same instance for every call with the same template. */
    static Template template(String path, boolean matchOnUriPrefix) {
        return TEMPLATES.computeIfAbsent(new TemplateKey(path, matchOnUriPrefix), Template::compile);
    }

    private static Match match(PlatformHttpEndpoint endpoint, String path) {
        Map<String, String> parameters = template(endpoint.getPath(), endpoint.isMatchOnUriPrefix()).parameters(path);
        if (parameters == null) {
            return null;
        }
        String restrict = endpoint.getHttpMethodRestrict();
        Set<String> methods = new TreeSet<>();
        if (restrict != null) {
            for (String method : restrict.split(",")) {
                methods.add(method.trim().toUpperCase(Locale.ROOT));
            }
        }
        return new Match(methods, parameters);
    }
}
