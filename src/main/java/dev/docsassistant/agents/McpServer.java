package dev.docsassistant.agents;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.analytics.RecordSteps;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.ApiException;
import dev.docsassistant.ground.InvalidRequestException;
import dev.docsassistant.ground.Json;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.SearchRequest;
import dev.docsassistant.search.DomainIndex;
import dev.docsassistant.search.DomainIndexes;
import dev.docsassistant.search.Page;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.SearchQuery;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.ProtocolVersions;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.support.ExpressionAdapter;

/**
 * A domain's MCP server ({@code POST /sites/{domain}/mcp}), stateless Streamable HTTP: each POST carries one JSON-RPC
 * message, a request is answered in the response's JSON body, a notification or a response gets 202 and no body,
 * and no session is kept. Its messages are the MCP Java SDK's schema ({@link McpSchema}); the SDK's server transports
 * are servlet and WebFlux ones, so agents.yaml carries the messages on a platform-http route, through the admission
 * every public endpoint takes. The tools are ChatGPT's connector shapes, which Claude, Cursor and VS Code use alike:
 * <ul>
 *     <li>{@code search}: the pages the assistant's context may use (the index: no hidden, noindex, off-navigation or
 *     {@code searchable: false} page), public ones only, as {@code {results: [{id, title, url, snippet}]}};</li>
 *     <li>{@code fetch}: one such page by a result's {@code id}, as {@code {id, title, text, url, metadata}}, its
 *     text the page's Markdown ({@link SiteFiles#markdown});</li>
 *     <li>{@code submit_feedback}: what is wrong with a listed page, kept as {@code agent} feedback in the
 *     analytics.</li>
 * </ul>
 * A tool's bad arguments are a tool error ({@code isError}), which the agent reads and may correct.
 */
public class McpServer {

    /** The versions served, newest first: a client asking for another is offered the newest. */
    static final List<String> VERSIONS = List.of(ProtocolVersions.MCP_2025_11_25, ProtocolVersions.MCP_2025_06_18);
    static final int SNIPPET_CHARS = 500;
    static final int DEFAULT_RESULTS = 8;
    /** The discovery API's most ({@code pageSize}). */
    static final int MAX_RESULTS = 50;

    private static final ObjectMapper JSON = Json.mapper();
    private static final Map<String, Object> STRING = Map.of("type", "string");
    private static final List<Tool> TOOLS = List.of(
            tool("search", "Search the documentation",
                    "Searches this documentation site and returns the most relevant pages, each with an id to fetch, "
                            + "a title, its URL and a snippet.",
                    schema(Map.of("query", described("What to search for"),
                            "version", described("Only pages of this documentation version"),
                            "language", described("Only pages of this language code, such as en"),
                            "limit", Map.of("type", "integer", "minimum", 1, "maximum", MAX_RESULTS,
                                    "description", "How many results, " + DEFAULT_RESULTS + " by default")),
                            List.of("query")),
                    schema(Map.of("results", Map.of("type", "array", "items", schema(Map.of("id", STRING,
                            "title", STRING, "url", STRING, "snippet", STRING), List.of("id", "title", "url")))),
                            List.of("results")), true),
            tool("fetch", "Read a documentation page",
                    "Returns a page's full content as Markdown, by the id a search result gave.",
                    schema(Map.of("id", described("The id of a search result (the page's path)")), List.of("id")),
                    schema(Map.of("id", STRING, "title", STRING, "text", STRING, "url", STRING,
                            "metadata", Map.of("type", "object")), List.of("id", "title", "text", "url")), true),
            tool("submit_feedback", "Report a documentation problem",
                    "Tells the documentation's authors that a page is wrong, outdated, confusing or incomplete.",
                    schema(Map.of("path", described("The page's path, such as /quickstart"),
                            "feedback", described("What is wrong with the page, and what would fix it")),
                            List.of("path", "feedback")), null, false));

    private final DomainIndexes indexes;
    private final RecordSteps records;
    private final String version;

    public McpServer(DomainIndexes indexes, RecordSteps records) {
        this.indexes = indexes;
        this.records = records;
        this.version = Objects.requireNonNullElse(McpServer.class.getPackage().getImplementationVersion(), "dev");
    }

    /** agents.yaml's answer ({@code setBody: ref: mcpAnswer}): the response, or null for a message that needs none. */
    public static Expression answer(McpServer server) {
        return new ExpressionAdapter() {
            @Override
            public Object evaluate(Exchange exchange) {
                return server.answer(exchange);
            }
        };
    }

    private Object answer(Exchange exchange) {
        String asked = exchange.getMessage().getHeader("MCP-Protocol-Version", String.class);
        if (asked != null && !VERSIONS.contains(asked)) {
            throw new InvalidRequestException("MCP-Protocol-Version", "MCP-Protocol-Version must be one of "
                    + VERSIONS);
        }
        JsonNode message;
        try {
            message = JSON.readTree(exchange.getMessage().getBody(byte[].class));
        } catch (IOException e) {
            return unidentified(McpSchema.ErrorCodes.PARSE_ERROR, "The body is not JSON");
        }
        if (message == null || !message.isObject()) {
            return unidentified(McpSchema.ErrorCodes.INVALID_REQUEST, "One JSON-RPC message a request, an object");
        }
        JsonNode id = message.get("id");
        if (!message.hasNonNull("method") || id == null) {
            return null; // a notification, or a client's response: accepted, nothing to answer
        }
        if (!id.isTextual() && !id.isIntegralNumber()) {
            return unidentified(McpSchema.ErrorCodes.INVALID_REQUEST, "id must be a string or an integer");
        }
        Object requestId = id.isTextual() ? id.asText() : id.numberValue();
        JsonNode params = message.path("params");
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        return switch (message.get("method").asText()) {
            case McpSchema.METHOD_INITIALIZE -> JSONRPCResponse.result(requestId, new McpSchema.InitializeResult(
                    negotiate(params.path("protocolVersion").asText("")),
                    McpSchema.ServerCapabilities.builder().tools(false).build(),
                    new McpSchema.Implementation("docs-assistant", "Documentation of " + tenant.domainId(), version),
                    "Search this documentation with the search tool, read a result with fetch (Markdown), and report a "
                            + "wrong or outdated page with submit_feedback."));
            case McpSchema.METHOD_PING -> JSONRPCResponse.result(requestId, Map.of());
            case McpSchema.METHOD_TOOLS_LIST -> JSONRPCResponse.result(requestId, new McpSchema.ListToolsResult(TOOLS,
                    null));
            case McpSchema.METHOD_TOOLS_CALL -> call(requestId, tenant, params);
            default -> error(requestId, McpSchema.ErrorCodes.METHOD_NOT_FOUND, "No method "
                    + message.get("method").asText() + " here: this server has tools only");
        };
    }

    private static String negotiate(String asked) {
        return VERSIONS.contains(asked) ? asked : VERSIONS.get(0);
    }

    private JSONRPCResponse call(Object requestId, Tenant tenant, JsonNode params) {
        String name = params.path("name").asText("");
        JsonNode arguments = params.path("arguments");
        try {
            CallToolResult result = switch (name) {
                case "search" -> search(tenant, arguments);
                case "fetch" -> fetch(tenant, arguments);
                case "submit_feedback" -> feedback(tenant, arguments);
                default -> null;
            };
            return result == null ? error(requestId, McpSchema.ErrorCodes.INVALID_PARAMS, "No tool '" + name + "'")
                    : JSONRPCResponse.result(requestId, result);
        } catch (ApiException e) {
            if (!(e instanceof InvalidRequestException) && !(e instanceof ToolException)) {
                throw e; // an index still loading, say: the HTTP error the other endpoints give
            }
            return JSONRPCResponse.result(requestId, CallToolResult.builder().isError(true)
                    .content(List.of(new TextContent(e.getMessage()))).build());
        }
    }

    private CallToolResult search(Tenant tenant, JsonNode arguments) {
        JsonNode limit = arguments.get("limit");
        if (limit != null && !(limit.isIntegralNumber() && limit.asInt() >= 1 && limit.asInt() <= MAX_RESULTS)) {
            throw new InvalidRequestException("limit", "limit must be an integer from 1 to " + MAX_RESULTS);
        }
        SearchRequest request = new SearchRequest(text(arguments, "query"),
                limit == null ? DEFAULT_RESULTS : limit.asInt(), null,
                new ChatRequest.Filter(text(arguments, "version"), text(arguments, "language"), List.of())).validate();
        SearchQuery query = new SearchQuery(request.query(), "", "", request.filter().language(),
                request.filter().version(), List.of(), null, request.size(), 0);
        List<Map<String, Object>> results = index(tenant).search(query).stream().map(hit -> result(tenant, hit))
                .toList();
        return structured(Map.of("results", results));
    }

    private static Map<String, Object> result(Tenant tenant, SearchHit hit) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("id", hit.path());
        result.put("title", hit.title());
        result.put("url", SiteFiles.pageUrl(tenant, hit.path()));
        String snippet = hit.content().strip();
        result.put("snippet", snippet.length() <= SNIPPET_CHARS ? snippet : snippet.substring(0, SNIPPET_CHARS) + "…");
        return result;
    }

    private CallToolResult fetch(Tenant tenant, JsonNode arguments) {
        String id = text(arguments, "id");
        if (id == null || id.isBlank() || id.length() > 2_000) {
            throw new InvalidRequestException("id", "id is required: a search result's id");
        }
        Page page = index(tenant).page(id, List.of())
                .orElseThrow(() -> new ToolException("No page '" + id + "' in this documentation"));
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("description", page.description());
        metadata.put("language", page.language());
        metadata.put("version", page.version());
        metadata.put("breadcrumb", page.breadcrumb());
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("id", page.path());
        document.put("title", page.title());
        document.put("text", SiteFiles.markdown(page));
        document.put("url", SiteFiles.pageUrl(tenant, page.path()));
        document.put("metadata", metadata);
        return structured(document);
    }

    private CallToolResult feedback(Tenant tenant, JsonNode arguments) {
        String path = text(arguments, "path");
        if (path == null || index(tenant).listedPage(path, List.of()).isEmpty()) {
            throw new ToolException("No page '" + path + "' in this documentation: give a page's path, such as "
                    + "a search result's id");
        }
        records.agentFeedback(tenant, path, text(arguments, "feedback"));
        return CallToolResult.builder().content(List.of(new TextContent("Thank you: the documentation's authors "
                + "will see this feedback."))).build();
    }

    private DomainIndex index(Tenant tenant) {
        return indexes.index(tenant.domainId());
    }

    /** The tool's result as structured content and, for clients that read only text, as its JSON text. */
    private static CallToolResult structured(Map<String, Object> content) {
        try {
            return CallToolResult.builder().structuredContent(content)
                    .content(List.of(new TextContent(JSON.writeValueAsString(content)))).build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e); // maps of strings and lists always serialize
        }
    }

    /** A string argument, null if absent; any other type is refused. */
    private static String text(JsonNode arguments, String name) {
        JsonNode value = arguments.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new InvalidRequestException(name, name + " must be a string");
        }
        return value.asText();
    }

    /**
     * An error about a message whose id could not be read: JSON-RPC's {@code "id": null}, which the SDK's
     * {@link JSONRPCResponse} does not allow.
     */
    private static Map<String, Object> unidentified(int code, String message) {
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        response.put("id", null);
        response.put("error", new JSONRPCError(code, message));
        return response;
    }

    private static JSONRPCResponse error(Object id, int code, String message) {
        return JSONRPCResponse.error(id, new JSONRPCError(code, message));
    }

    private static Tool tool(String name, String title, String description, Map<String, Object> input,
            Map<String, Object> output, boolean readOnly) {
        return Tool.builder().name(name).title(title).description(description).inputSchema(input)
                .outputSchema(output)
                .annotations(new McpSchema.ToolAnnotations(title, readOnly, false, readOnly, false, null)).build();
    }

    private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
        return Map.of("type", "object", "properties", properties, "required", required);
    }

    private static Map<String, Object> described(String description) {
        return Map.of("type", "string", "description", description);
    }

    /** A tool call that cannot be answered as asked: reported to the agent in the tool's result. */
    static final class ToolException extends ApiException {
        ToolException(String detail) {
            super("tool_error", detail, null);
        }
    }
}
