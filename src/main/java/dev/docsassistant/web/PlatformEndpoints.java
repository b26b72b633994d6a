package dev.docsassistant.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
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

    /** A declared endpoint whose path matches: its methods (empty for any) and its path parameters. */
    record Match(Set<String> methods, Map<String, String> parameters) {
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

    private static Match match(PlatformHttpEndpoint endpoint, String path) {
        String template = endpoint.getPath();
        List<String> names = PARAMETER.matcher(template).results().map(r -> r.group(1)).toList();
        StringBuilder regex = new StringBuilder();
        int last = 0;
        Matcher parameter = PARAMETER.matcher(template);
        while (parameter.find()) {
            regex.append(Pattern.quote(template.substring(last, parameter.start()))).append("([^/]+)");
            last = parameter.end();
        }
        String tail = template.substring(last);
        boolean prefix = endpoint.isMatchOnUriPrefix() || tail.endsWith("*");
        regex.append(Pattern.quote(tail.endsWith("*") ? tail.substring(0, tail.length() - 1) : tail));
        if (prefix) {
            regex.append(".*");
        }
        Matcher matcher = Pattern.compile(regex.toString()).matcher(path);
        if (!matcher.matches()) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            parameters.put(names.get(i), matcher.group(i + 1));
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
