package dev.docsassistant.openapi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;

/**
 * The API as src/main/resources/openapi.yaml describes it, and the check of recorded traffic against it:
 * Atlassian's validator matches each exchange to its operation and checks the response's status, headers, content
 * type and JSON body, and, when the service accepted the request (2xx), the request too. A refused request is
 * refused because it breaks the description; only its response must match. Streamed bodies are checked only for
 * how they start. An NDJSON body of no lines is a whole answer (nothing matched), though the validator, which cannot
 * know a media type allows an empty body, calls it missing. A request for an operation the document does not have
 * must get the 404 or 405 problem.
 */
public final class ApiDescription {

    /** Operators' endpoints, deliberately not in the public description. */
    private static final String UNDESCRIBED = "/observe/";
    private static final Pattern DATA_STREAM = Pattern.compile("^[0-9a-z]:.*", Pattern.DOTALL);
    private static final Pattern EVENT_STREAM = Pattern.compile("^(data: |: ).*", Pattern.DOTALL);
    /** A site's files and pages (agents.yaml): a page's path may have several segments. */
    private static final String SITES = "/sites/";
    private static final Pattern SITE_PAGE = Pattern.compile("^(/sites/[^/]+/)(.+/.+)$");
    private static final Set<String> NO_OPERATION = Set.of("validation.request.path.missing",
            "validation.request.operation.notAllowed");

    private static final ApiDescription INSTANCE = new ApiDescription();

    private final JsonNode document;
    private final OpenApiInteractionValidator validator;
    private final Schema problem;

    private ApiDescription() {
        try (InputStream yaml = ApiDescription.class.getClassLoader().getResourceAsStream("openapi.yaml")) {
            document = new YAMLMapper().readTree(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        validator = OpenApiInteractionValidator.createForInlineApiSpecification(document.toString())
                // The service ignores request fields it does not use (useChat sends several); responses stay strict.
                .withLevelResolver(LevelResolver.create()
                        .withLevel("validation.request.body.schema.additionalProperties", ValidationReport.Level.IGNORE)
                        .build())
                .build();
        problem = SchemaRegistry.withDialect(Dialects.getOpenApi31())
                .getSchema(document.at("/components/schemas/Problem"));
    }

    public static ApiDescription get() {
        return INSTANCE;
    }

    public JsonNode document() {
        return document;
    }

    /** Fails, listing every mismatch, unless all traffic the service has recorded matches the description. */
    public static void assertTrafficMatches(ApiTraffic traffic) {
        List<String> mismatches = INSTANCE.mismatches(traffic.drain());
        if (!mismatches.isEmpty()) {
            throw new AssertionError("Traffic that does not match openapi.yaml:\n" + String.join("\n", mismatches));
        }
    }

    /** How each exchange differs from the description; empty when all match. */
    public List<String> mismatches(List<ApiTraffic.Recorded> traffic) {
        List<String> mismatches = new ArrayList<>();
        for (ApiTraffic.Recorded exchange : traffic) {
            // 499 is written, for the request log, to a connection the client already closed: no one receives it
            if (!exchange.path().startsWith(UNDESCRIBED) && exchange.status() != 499) {
                mismatches(exchange).forEach(m -> mismatches.add(exchange + ": " + m));
            }
        }
        return mismatches;
    }

    List<String> mismatches(ApiTraffic.Recorded exchange) {
        Request.Method method = Request.Method.valueOf(exchange.method());
        String contentType = exchange.responseHeader("Content-Type");
        boolean stream = contentType != null && !exchange.path().startsWith(SITES) // llms.txt is text/plain too
                && (contentType.startsWith("text/plain") || contentType.startsWith("text/event-stream"));
        SimpleResponse.Builder response = SimpleResponse.Builder.status(exchange.status());
        exchange.responseHeaders().forEach(response::withHeader);
        byte[] body = exchange.responseBody();
        if (body.length > 0) {
            response.withBody(body);
        }
        SimpleRequest.Builder request = new SimpleRequest.Builder(method, sitePage(exchange.path()));
        exchange.query().forEach(request::withQueryParam);
        exchange.requestHeaders().forEach(request::withHeader);
        if (exchange.requestBody() != null) {
            request.withBody(exchange.requestBody());
        }
        boolean accepted = exchange.status() >= 200 && exchange.status() < 300;
        // A connection's first body can pass the codec, all or in part, before the recorder joins its pipeline (it
        // joins at that request's head): the request is then unknown, and only the response is checked.
        boolean bodyUnseen = exchange.requestBody() == null ? announcesBody(exchange.requestHeaders())
                : exchange.requestBody().length < announcedLength(exchange.requestHeaders());
        ValidationReport report = accepted && !bodyUnseen ? validator.validate(request.build(), response.build())
                : validator.validateResponse(sitePage(exchange.path()), method, response.build());
        List<String> mismatches = new ArrayList<>();
        if (report.getMessages().stream().anyMatch(m -> NO_OPERATION.contains(m.getKey()))) {
            return noOperation(exchange);
        }
        boolean noLines = body.length == 0 && contentType != null && contentType.startsWith("application/x-ndjson");
        report.getMessages().stream().filter(m -> m.getLevel() == ValidationReport.Level.ERROR)
                .filter(m -> !(noLines && m.getKey().equals("validation.response.body.missing")))
                .forEach(m -> mismatches.add(m.getKey() + ": " + m.getMessage()));
        if (stream && exchange.status() == 200) {
            String start = new String(body, StandardCharsets.UTF_8);
            Pattern format = contentType.startsWith("text/plain") ? DATA_STREAM : EVENT_STREAM;
            if (!format.matcher(start).matches()) {
                mismatches.add("the stream does not start as " + contentType + " says: "
                        + start.substring(0, Math.min(start.length(), 80)));
            }
        }
        return mismatches;
    }

    /**
     * A site page of several segments ({@code /sites/acme/api/tokens.md}) as the one {@code {page}} parameter OpenAPI's
     * templates can match ({@code /sites/acme/api%2Ftokens.md}).
     */
    private static String sitePage(String path) {
        Matcher page = SITE_PAGE.matcher(path);
        return page.matches() && !page.group(2).startsWith(".well-known/")
                ? page.group(1) + page.group(2).replace("/", "%2F") : path;
    }

    /** Not an operation of the document: the service must say so, as a problem (404, or 405 with Allow). */
    private List<String> noOperation(ApiTraffic.Recorded exchange) {
        List<String> mismatches = new ArrayList<>();
        int status = exchange.status();
        if (status != 404 && status != 405) {
            mismatches.add("no such operation in the document, yet answered " + status);
            return mismatches;
        }
        if (status == 405 && exchange.responseHeader("Allow") == null) {
            mismatches.add("405 without Allow");
        }
        if (!"application/problem+json".equals(exchange.responseHeader("Content-Type"))) {
            mismatches.add("not a problem: " + exchange.responseHeader("Content-Type"));
            return mismatches;
        }
        try {
            JsonNode body = new ObjectMapper().readTree(exchange.responseBody());
            problem.validate(body).forEach(error -> mismatches.add("problem: " + error.getMessage()));
        } catch (IOException e) {
            mismatches.add("problem body is not JSON: " + e.getMessage());
        }
        return mismatches;
    }

    /** The body's length as its Content-Length says, or 0 when it names none (or a chunked one). */
    private static long announcedLength(Map<String, List<String>> headers) {
        List<String> length = headers.get("Content-Length");
        try {
            return length == null || length.isEmpty() ? 0 : Long.parseLong(length.get(0).strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean announcesBody(Map<String, List<String>> headers) {
        List<String> length = headers.get("Content-Length");
        return headers.containsKey("Transfer-Encoding")
                || (length != null && !length.isEmpty() && !length.get(0).strip().equals("0"));
    }
}
