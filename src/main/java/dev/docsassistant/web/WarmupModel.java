package dev.docsassistant.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The warm-up's model server ({@link Warmup}): OpenAI's streamed chat completions on loopback, the wire format every
 * provider of the service speaks, so the warm-up runs the model client's path (its request, the event stream, usage)
 * as a real model server makes it run, for no tokens. Each answer is {@value #TOKENS} words, each its own write. The
 * JDK's own HTTP server (a thread per answer): it lives for the seconds of the warm-up.
 */
final class WarmupModel implements AutoCloseable {

    private static final int TOKENS = 40;
    /** Between two tokens: a burst's streams are open at once, each waiting on its model most of its time. */
    private static final long PAUSE_MS = 2;
    private static final List<byte[]> EVENTS = events();
    private static final AtomicInteger ANSWERS = new AtomicInteger();

    private final HttpServer server;
    private final ExecutorService threads;

    private WarmupModel(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    static WarmupModel start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ExecutorService threads = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "warm-up-model");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(threads);
        server.createContext("/v1/chat/completions", WarmupModel::complete);
        server.start();
        return new WarmupModel(server, threads);
    }

    /** The base URL the service's model client is given ({@code assistant.model.base-url}). */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private static void complete(HttpExchange exchange) throws IOException {
        try (exchange; InputStream request = exchange.getRequestBody()) {
            request.transferTo(OutputStream.nullOutputStream());
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            // every other answer on a new connection: a burst opens a model connection per stream it has not had
            // before, and a warm pod reuses those it has, so both the pool's paths are warmed
            if (ANSWERS.getAndIncrement() % 2 == 0) {
                exchange.getResponseHeaders().set("Connection", "close");
            }
            exchange.sendResponseHeaders(200, 0); // chunked
            try (OutputStream out = exchange.getResponseBody()) {
                for (byte[] event : EVENTS) { // a write and a pause per token, as a model streams
                    out.write(event);
                    out.flush();
                    Thread.sleep(PAUSE_MS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * An answer as OpenAI streams it when asked for usage (the request's {@code stream_options}), field for field: a
     * role chunk, a chunk per token, the finish, then the usage, every chunk but the last with {@code "usage":null}.
     * The JIT compiles the parser for the fields and branches it has seen: one it meets first in a reader's answer
     * would send the compiled code back to be compiled again during that reader's burst.
     */
    private static List<byte[]> events() {
        List<String> events = new ArrayList<>();
        String head = "data: {\"id\":\"chatcmpl-warm-up\",\"object\":\"chat.completion.chunk\",\"created\":0,"
                + "\"model\":\"warm-up\",\"service_tier\":\"default\",\"system_fingerprint\":\"fp_warm_up\",\"choices\":[";
        String tail = ",\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n";
        events.add(head + "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null}" + tail);
        for (int i = 0; i < TOKENS; i++) {
            events.add(head + "{\"index\":0,\"delta\":{\"content\":\"word" + i + " \"}" + tail);
        }
        events.add(head + "{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}],\"usage\":null}\n\n");
        events.add(head + "],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":" + TOKENS + ",\"total_tokens\":"
                + (100 + TOKENS) + ",\"prompt_tokens_details\":{\"cached_tokens\":0,\"audio_tokens\":0},"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":0,\"audio_tokens\":0,"
                + "\"accepted_prediction_tokens\":0,\"rejected_prediction_tokens\":0}}}\n\ndata: [DONE]\n\n");
        return events.stream().map(event -> event.getBytes(StandardCharsets.UTF_8)).toList();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
