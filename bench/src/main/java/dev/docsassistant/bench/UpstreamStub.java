package dev.docsassistant.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * A fast OpenAI-compatible upstream: {@code POST …/chat/completions} answers with {@code stream: true} Server-Sent
 * Events exactly as OpenAI sends them (a role chunk, one chunk per content token, a {@code finish_reason} chunk,
 * the usage chunk with empty {@code choices} when {@code stream_options.include_usage} asks for it, then
 * {@code data: [DONE]}). Its timing is fixed per run; every wait is an event-loop timer, so the stub holds
 * thousands of slow streams on two threads.
 *
 * <pre>java -cp bench/target/bench.jar:target/docs-assistant.jar dev.docsassistant.bench.UpstreamStub
 *     PORT TOKENS DELAY_MS FIRST_DELAY_MS</pre>
 */
public final class UpstreamStub extends AbstractVerticle {

    private static final String MODEL = "gpt-4o-mini-2024-07-18";
    private static final String FINGERPRINT = "fp_stub";
    private static final Pattern INCLUDE_USAGE = Pattern.compile("\"include_usage\"\\s*:\\s*true");
    private static final Buffer DONE = Buffer.buffer("data: [DONE]\n\n");

    private final int port;
    private final int tokens;
    private final long delayMs;
    private final long firstDelayMs;
    private final AtomicLong ids;

    private UpstreamStub(int port, int tokens, long delayMs, long firstDelayMs, AtomicLong ids) {
        this.port = port;
        this.tokens = tokens;
        this.delayMs = delayMs;
        this.firstDelayMs = firstDelayMs;
        this.ids = ids;
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int tokens = Integer.parseInt(args[1]);
        long delayMs = Long.parseLong(args[2]);
        long firstDelayMs = Long.parseLong(args[3]);
        int loops = Runtime.getRuntime().availableProcessors();
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
        AtomicLong ids = new AtomicLong();
        vertx.deployVerticle(() -> new UpstreamStub(port, tokens, delayMs, firstDelayMs, ids),
                new DeploymentOptions().setInstances(loops))
                .onSuccess(id -> System.out.printf("stub ready on 127.0.0.1:%d (%d tokens, %d ms apart, first after %d ms)%n",
                        port, tokens, delayMs, firstDelayMs))
                .onFailure(e -> {
                    e.printStackTrace();
                    System.exit(1);
                });
    }

    @Override
    public void start(io.vertx.core.Promise<Void> started) {
        vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port).setIdleTimeout(0)
                        .setTcpNoDelay(true))
                .requestHandler(this::handle)
                .listen()
                .<Void>mapEmpty()
                .onComplete(started);
    }

    private void handle(HttpServerRequest request) {
        if (!request.path().endsWith("/chat/completions")) {
            request.response().setStatusCode(404).end();
            return;
        }
        request.body().onSuccess(body -> {
            boolean usage = INCLUDE_USAGE.matcher(body.toString()).find(); // langchain4j's JSON is pretty-printed
            new Answer(request.response(), "chatcmpl-" + ids.incrementAndGet(), System.currentTimeMillis() / 1000,
                    usage).start();
        });
    }

    /** One streamed completion; every chunk written on the connection's event loop. */
    private final class Answer {
        private final HttpServerResponse response;
        private final String head;
        private final boolean usage;
        private int sent;
        private long timer = -1;

        Answer(HttpServerResponse response, String id, long created, boolean usage) {
            this.response = response;
            this.head = "data: {\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":" + created
                    + ",\"model\":\"" + MODEL + "\",\"service_tier\":\"default\",\"system_fingerprint\":\"" + FINGERPRINT
                    + "\",\"choices\":";
            this.usage = usage;
        }

        void start() {
            response.setChunked(true)
                    .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                    .putHeader("Cache-Control", "no-cache");
            response.closeHandler(gone -> cancel());
            response.exceptionHandler(gone -> cancel());
            if (firstDelayMs > 0) {
                response.writeHead();
                timer = vertx.setTimer(firstDelayMs, t -> next());
            } else {
                next();
            }
        }

        /** Writes the role chunk and then one token at a time; with no delay, the whole answer at once. */
        private void next() {
            if (sent == 0) {
                chunk("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},"
                        + "\"logprobs\":null,\"finish_reason\":null}]}");
            }
            do {
                if (sent == tokens) {
                    finish();
                    return;
                }
                chunk("[{\"index\":0,\"delta\":{\"content\":\"" + (sent == 0 ? "Token" : " token") + sent
                        + "\"},\"logprobs\":null,\"finish_reason\":null}]}");
                sent++;
            } while (delayMs == 0);
            timer = vertx.setTimer(delayMs, t -> next());
        }

        private void finish() {
            chunk("[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}");
            if (usage) {
                last("[],\"usage\":{\"prompt_tokens\":512,\"completion_tokens\":" + tokens + ",\"total_tokens\":"
                        + (512 + tokens) + ",\"prompt_tokens_details\":{\"cached_tokens\":0,\"audio_tokens\":0},"
                        + "\"completion_tokens_details\":{\"reasoning_tokens\":0,\"audio_tokens\":0,"
                        + "\"accepted_prediction_tokens\":0,\"rejected_prediction_tokens\":0}}}");
            }
            if (!response.closed()) {
                response.end(DONE);
            }
        }

        /** A chunk before the last: with usage asked for, OpenAI sends {@code "usage":null} in each. */
        private void chunk(String choices) {
            last(usage ? choices.substring(0, choices.length() - 1) + ",\"usage\":null}" : choices);
        }

        private void last(String rest) {
            if (!response.closed()) {
                response.write(head + rest + "\n\n");
            }
        }

        private void cancel() {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
        }
    }
}
