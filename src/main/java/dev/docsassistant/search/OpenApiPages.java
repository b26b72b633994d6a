package dev.docsassistant.search;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mintlify's OpenAPI pages ({@code openapi: "POST /widgets"} in a page's frontmatter, the spec named by docs.json's
 * {@code openapi}, or first in the frontmatter: {@code openapi: "api/spec.yaml POST /widgets"}): the operation read
 * from the spec and written after the page's own text as Markdown sections (its summary and description, its
 * parameters, request body and responses), so "which parameters does this endpoint take" finds and answers it.
 * <p>
 * Specs are docs content, so untrusted: only files inside the docs folder, at most {@value #MAX_SPEC_BYTES} bytes,
 * parsed by swagger-parser without resolving any reference (no file or address is fetched; a {@code $ref} within the
 * spec's components is followed here, one level), and at most {@value #MAX_ITEMS} parameters, properties or
 * responses written per list. A spec that cannot be read leaves the page as it was.
 */
final class OpenApiPages {

    static final long MAX_SPEC_BYTES = 5L << 20;
    private static final int MAX_ITEMS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(OpenApiPages.class);
    private static final Pattern REFERENCE = Pattern.compile(
            "^\\s*(?:(\\S+\\.(?:json|ya?ml))\\s+)?(get|post|put|patch|delete|head|options|trace)\\s+(/\\S*)\\s*$",
            Pattern.CASE_INSENSITIVE);

    private final Path root;
    /** The specs docs.json names, relative to the root, in order. */
    private final List<String> named;
    /** Each spec as parsed (null: it could not be), by its path relative to the root: once a read of the folder. */
    private final Map<String, OpenAPI> parsed = new HashMap<>();

    OpenApiPages(Path root, JsonNode config) {
        this.root = root;
        Set<String> specs = new LinkedHashSet<>();
        collect(config, specs);
        this.named = List.copyOf(specs);
    }

    /** Every {@code openapi} value (a path, a list of them, or {@code {source: …}}) anywhere in docs.json. */
    private static void collect(JsonNode node, Set<String> specs) {
        if (node == null) {
            return;
        }
        if (node.isObject()) {
            node.properties().forEach(entry -> {
                if (entry.getKey().equals("openapi")) {
                    JsonNode value = entry.getValue();
                    for (JsonNode one : value.isArray() ? value : List.of(value)) {
                        JsonNode path = one.isObject() ? one.path("source") : one;
                        if (path.isTextual()) {
                            specs.add(path.asText().strip().replaceAll("^/+", ""));
                        }
                    }
                } else {
                    collect(entry.getValue(), specs);
                }
            });
        } else if (node.isArray()) {
            node.forEach(child -> collect(child, specs));
        }
    }

    /** Whether the frontmatter names an operation: the page's source depends on a spec's text. */
    static boolean refers(Map<?, ?> frontmatter) {
        return reference(frontmatter).matches();
    }

    private static Matcher reference(Map<?, ?> frontmatter) {
        return REFERENCE.matcher(frontmatter.get("openapi") instanceof String text ? text : "");
    }

    /** The page's source with its operation's sections after it; the source unchanged for any other page. */
    String expand(String source, Map<?, ?> frontmatter) {
        Matcher operation = reference(frontmatter);
        if (!operation.matches()) {
            return source;
        }
        String method = operation.group(2).toLowerCase(Locale.ROOT);
        String path = operation.group(3);
        List<String> candidates = operation.group(1) != null
                ? List.of(operation.group(1).replaceAll("^/+", "")) : named;
        for (String spec : candidates) {
            OpenAPI api = spec(spec);
            PathItem item = api == null || api.getPaths() == null ? null : api.getPaths().get(path);
            Operation found = item == null ? null : item.readOperationsMap().get(PathItem.HttpMethod.valueOf(
                    method.toUpperCase(Locale.ROOT)));
            if (found != null) {
                return source.stripTrailing() + "\n\n" + markdown(api, item, found);
            }
        }
        return source;
    }

    private OpenAPI spec(String relative) {
        if (parsed.containsKey(relative)) {
            return parsed.get(relative);
        }
        OpenAPI api = null;
        Path file = root.resolve(relative).normalize();
        try {
            if (file.startsWith(root.normalize()) && Files.isRegularFile(file) && Files.size(file) <= MAX_SPEC_BYTES) {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                ParseOptions options = new ParseOptions();
                options.setResolve(false); // nothing fetched: references stay as written
                api = new OpenAPIV3Parser().readContents(text, null, options).getOpenAPI();
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot read the OpenAPI spec {}: {}", relative, e.toString());
        }
        parsed.put(relative, api);
        return api;
    }

    private static String markdown(OpenAPI api, PathItem item, Operation operation) {
        StringBuilder out = new StringBuilder();
        String summary = text(operation.getSummary());
        String description = text(operation.getDescription());
        if (!summary.isEmpty() || !description.isEmpty()) {
            out.append("## Endpoint\n\n").append(summary).append(summary.isEmpty() ? "" : "\n\n").append(description)
                    .append("\n\n");
        }
        List<Parameter> parameters = new ArrayList<>();
        if (item.getParameters() != null) {
            parameters.addAll(item.getParameters());
        }
        if (operation.getParameters() != null) {
            parameters.addAll(operation.getParameters());
        }
        if (!parameters.isEmpty()) {
            out.append("## Parameters\n\n");
            for (Parameter parameter : parameters.subList(0, Math.min(MAX_ITEMS, parameters.size()))) {
                parameter = resolve(api, parameter);
                out.append("- `").append(text(parameter.getName())).append("` (").append(text(parameter.getIn()))
                        .append(Boolean.TRUE.equals(parameter.getRequired()) ? ", required" : "")
                        .append(type(api, parameter.getSchema())).append("): ").append(text(parameter.getDescription()))
                        .append('\n');
            }
            out.append('\n');
        }
        RequestBody body = resolve(api, operation.getRequestBody());
        if (body != null && body.getContent() != null) {
            out.append("## Request body\n\n").append(text(body.getDescription())).append('\n');
            body.getContent().forEach((type, media) -> properties(api, type, media, out));
            out.append('\n');
        }
        if (operation.getResponses() != null && !operation.getResponses().isEmpty()) {
            out.append("## Responses\n\n");
            operation.getResponses().entrySet().stream().limit(MAX_ITEMS).forEach(response -> {
                ApiResponse resolved = resolve(api, response.getValue());
                out.append("- `").append(response.getKey()).append("`: ")
                        .append(text(resolved == null ? null : resolved.getDescription())).append('\n');
            });
        }
        return out.toString().stripTrailing() + "\n";
    }

    /** A body's media type and the properties of its schema, each with its type, whether required, and description. */
    private static void properties(OpenAPI api, String type, MediaType media, StringBuilder out) {
        Schema<?> schema = resolve(api, media == null ? null : media.getSchema());
        out.append("\n`").append(type).append('`').append(type(api, schema)).append('\n');
        if (schema == null || schema.getProperties() == null) {
            return;
        }
        List<String> required = schema.getRequired() == null ? List.of() : schema.getRequired();
        schema.getProperties().entrySet().stream().limit(MAX_ITEMS).forEach(property -> {
            Schema<?> value = resolve(api, property.getValue());
            out.append("- `").append(property.getKey()).append("` (")
                    .append(required.contains(property.getKey()) ? "required" : "optional").append(type(api, value))
                    .append("): ").append(text(value == null ? null : value.getDescription()));
            if (value != null && value.getEnum() != null && !value.getEnum().isEmpty()) {
                out.append(" One of: ").append(value.getEnum().stream().limit(MAX_ITEMS).map(String::valueOf)
                        .reduce((a, b) -> a + ", " + b).orElse("")).append('.');
            }
            out.append('\n');
        });
    }

    private static String type(OpenAPI api, Schema<?> schema) {
        Schema<?> resolved = resolve(api, schema);
        String type = resolved == null ? null : resolved.getType() != null ? resolved.getType()
                : resolved.getTypes() != null && !resolved.getTypes().isEmpty() ? resolved.getTypes().iterator().next()
                : null;
        return type == null ? "" : ", " + type;
    }

    /** A {@code #/components/…} reference followed one level within the spec; anything else as it is. */
    @SuppressWarnings("unchecked")
    private static <T> T resolve(OpenAPI api, T value) {
        String ref = value instanceof Schema<?> schema ? schema.get$ref()
                : value instanceof Parameter parameter ? parameter.get$ref()
                : value instanceof RequestBody body ? body.get$ref()
                : value instanceof ApiResponse response ? response.get$ref() : null;
        if (ref == null || api.getComponents() == null || !ref.startsWith("#/components/")) {
            return value;
        }
        String name = ref.substring(ref.lastIndexOf('/') + 1);
        Object found = value instanceof Schema<?> ? get(api.getComponents().getSchemas(), name)
                : value instanceof Parameter ? get(api.getComponents().getParameters(), name)
                : value instanceof RequestBody ? get(api.getComponents().getRequestBodies(), name)
                : get(api.getComponents().getResponses(), name);
        return found == null ? value : (T) found;
    }

    private static Object get(Map<String, ?> components, String name) {
        return components == null ? null : components.get(name);
    }

    /** A spec's text as one line of prose: newlines kept out of list items. */
    private static String text(String value) {
        return value == null ? "" : value.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
