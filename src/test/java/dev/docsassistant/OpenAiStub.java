package dev.docsassistant;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * A small OpenAI-compatible server for the tests: {@code POST /v1/chat/completions} answered with OpenAI's exact
 * streaming format (a role chunk, content or tool-call deltas, a finish_reason chunk, a usage chunk with empty
 * {@code choices}, {@code data: [DONE]}), or with whatever failure the test scripts. Each request takes the next
 * script, or the default answer; every request is recorded.
 */
final class OpenAiStub implements AutoCloseable {

    static final String DEFAULT_ANSWER = "Set camel.server.port to change the port.";
    static final int PROMPT_TOKENS = 42;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one request saw: its headers, its body, and when it arrived. */
    record Request(MultiMap headers, JsonNode body, long arrivedNanos) {
    }

    /** How the stub answers one request. */
    interface Script {
        void answer(HttpServerRequest request, HttpServerResponse response);
    }

    private final Vertx vertx = Vertx.vertx();
    private final HttpServer server;
    private final ConcurrentLinkedDeque<Script> scripts = new ConcurrentLinkedDeque<>();
    final List<Request> requests = new CopyOnWriteArrayList<>();
    /** Completed when a response is cut off by the client (the connection closed before it ended). */
    volatile CompletableFuture<Long> abandoned = new CompletableFuture<>();
    final AtomicInteger tokensSent = new AtomicInteger();

    OpenAiStub() throws Exception {
        server = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
            requests.add(new Request(MultiMap.caseInsensitiveMultiMap().addAll(request.headers()),
                    read(body.toString()), System.nanoTime()));
            HttpServerResponse response = request.response();
            response.closeHandler(ignored -> {
                if (!response.ended()) {
                    abandoned.complete(System.nanoTime());
                }
            });
            Script script = scripts.poll();
            (script == null ? answer(DEFAULT_ANSWER.split("(?<= )")) : script).answer(request, response);
        })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /**
     * Starts a stub and makes it the service's model server: camel-main reads system properties before its own
     * files, and the tests' annotations cannot know the stub's port in advance.
     */
    static OpenAiStub startAsModelServer() {
        try {
            OpenAiStub stub = new OpenAiStub();
            System.setProperty("assistant.model.base-url", stub.baseUrl());
            return stub;
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the model stub", e);
        }
    }

    static void stopAsModelServer(OpenAiStub stub) throws Exception {
        System.clearProperty("assistant.model.base-url");
        stub.close();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.actualPort() + "/v1";
    }

    /** The next requests are answered by these scripts, in order. */
    void then(Script... next) {
        scripts.addAll(List.of(next));
    }

    void reset() {
        scripts.clear();
        requests.clear();
        abandoned = new CompletableFuture<>();
        tokensSent.set(0);
    }

    // ---- scripts ------------------------------------------------------------------------------------------------

    /** A complete streamed answer. */
    Script answer(String... deltas) {
        return (request, response) -> {
            start(response);
            for (String delta : deltas) {
                content(response, delta);
            }
            finish(response, "stop", deltas.length);
        };
    }

    /** An error status with OpenAI's error body. */
    Script status(int status, Map<String, String> headers) {
        return (request, response) -> {
            response.setStatusCode(status).putHeader("Content-Type", "application/json");
            headers.forEach(response::putHeader);
            response.end("{\"error\":{\"message\":\"scripted " + status + "\",\"type\":\"server_error\"}}");
        };
    }

    /** Sends these deltas, then drops the connection without ending the stream. */
    Script dropAfter(String... deltas) {
        return (request, response) -> {
            start(response);
            for (String delta : deltas) {
                content(response, delta);
            }
            request.connection().close();
        };
    }

    /** Sends these deltas, then an error event as OpenAI does when it fails mid-stream. */
    Script errorAfter(String... deltas) {
        return (request, response) -> {
            start(response);
            for (String delta : deltas) {
                content(response, delta);
            }
            send(response, "{\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\"}}");
            response.end();
        };
    }

    /** Sends these deltas (none: only the role chunk), then nothing more, ever. */
    Script hangAfter(String... deltas) {
        return (request, response) -> {
            start(response);
            for (String delta : deltas) {
                content(response, delta);
            }
        };
    }

    /** Takes the request and never answers, not even with response headers. */
    Script silent() {
        return (request, response) -> {
        };
    }

    /** Sends {@code first}, then the rest of the answer only once {@code release} completes. */
    Script gated(String first, CompletableFuture<Void> release, String... rest) {
        return (request, response) -> {
            Vertx vertx = Vertx.currentContext().owner();
            start(response);
            content(response, first);
            release.thenRun(() -> vertx.runOnContext(ignored -> {
                for (String delta : rest) {
                    content(response, delta);
                }
                finish(response, "stop", 1 + rest.length);
            }));
        };
    }

    /** A token every 20 ms until the client goes away. */
    Script endless() {
        return (request, response) -> {
            start(response);
            long timer = vertx.setPeriodic(20, id -> {
                if (!response.closed()) {
                    content(response, "more ");
                }
            });
            response.closeHandler(ignored -> {
                vertx.cancelTimer(timer);
                abandoned.complete(System.nanoTime());
            });
        };
    }

    /** The model calls the search tool with this query (its arguments streamed in two fragments). */
    Script searchCall(String toolCallId, String query) {
        return (request, response) -> {
            start(response);
            String arguments = JSON.createObjectNode().put("query", query).toString();
            int half = arguments.length() / 2;
            ObjectNode first = JSON.createObjectNode();
            first.putArray("tool_calls").addObject().put("index", 0).put("id", toolCallId).put("type", "function")
                    .putObject("function").put("name", "search").put("arguments", arguments.substring(0, half));
            send(response, chunk(first, null));
            ObjectNode second = JSON.createObjectNode();
            second.putArray("tool_calls").addObject().put("index", 0)
                    .putObject("function").put("arguments", arguments.substring(half));
            send(response, chunk(second, null));
            finish(response, "tool_calls", 9);
        };
    }

    // ---- the wire format ----------------------------------------------------------------------------------------

    private static void start(HttpServerResponse response) {
        response.setStatusCode(200).setChunked(true)
                .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                .putHeader("Cache-Control", "no-cache");
        ObjectNode delta = JSON.createObjectNode().put("role", "assistant").put("content", "");
        delta.putNull("refusal");
        send(response, chunk(delta, null));
    }

    private void content(HttpServerResponse response, String text) {
        tokensSent.incrementAndGet();
        send(response, chunk(JSON.createObjectNode().put("content", text), null));
    }

    private static void finish(HttpServerResponse response, String reason, int completionTokens) {
        send(response, chunk(JSON.createObjectNode(), reason));
        ObjectNode usage = base();
        usage.putArray("choices");
        usage.putObject("usage").put("prompt_tokens", PROMPT_TOKENS).put("completion_tokens", completionTokens)
                .put("total_tokens", PROMPT_TOKENS + completionTokens);
        send(response, usage.toString());
        response.end("data: [DONE]\n\n");
    }

    private static String chunk(ObjectNode delta, String finishReason) {
        ObjectNode chunk = base();
        ArrayNode choices = chunk.putArray("choices");
        ObjectNode choice = choices.addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        chunk.putNull("usage");
        return chunk.toString();
    }

    private static ObjectNode base() {
        return JSON.createObjectNode().put("id", "chatcmpl-stub").put("object", "chat.completion.chunk")
                .put("created", 1_700_000_000L).put("model", "stub-model").put("system_fingerprint", "fp_stub");
    }

    private static void send(HttpServerResponse response, String data) {
        if (!response.closed()) {
            response.write("data: " + data + "\n\n");
        }
    }

    private static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (Exception e) {
            return JSON.getNodeFactory().textNode(body);
        }
    }

    /** The messages of the n-th request. */
    List<JsonNode> messages(int n) {
        List<JsonNode> messages = new ArrayList<>();
        requests.get(n).body().path("messages").forEach(messages::add);
        return messages;
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
