package dev.docsassistant.analytics;

import java.util.List;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.TenantsFile;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.StreamedAnswer;
import dev.docsassistant.model.Usage;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.UiMessage;
import dev.docsassistant.thread.ThreadRef;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;

/**
 * What the store of record costs an answer's request, in nanoseconds: {@link RecordAnswer#process} (the capture the
 * request makes, with the writer off so that no queue or database is timed), and the row the writer's thread makes of
 * it ({@code Answered.turn()}: the sources as JSON, the caller type, the page URL), which the request made itself
 * before. In the analytics package for its package-private types. A hand-written loop, rounds until the JIT settles:
 * a rough figure; usage: {@code java -cp target/docs-assistant.jar:bench/target/bench.jar
 * dev.docsassistant.analytics.RecordPathCost}.
 */
public final class RecordPathCost {

    private static Object sink;

    private RecordPathCost() {
    }

    public static void main(String[] a) throws Exception {
        var org = new TenantsFile.Organization("acme", List.of("k"), null, List.of());
        var domain = new TenantsFile.Domain("acme", "classpath:demo-docs", "https://acme.example.com/docs/");
        Exchange exchange = new DefaultExchange(new DefaultCamelContext());
        exchange.setProperty(StepContract.TENANT, new Tenant(org, domain));
        exchange.setProperty(StepContract.THREAD, new ThreadRef("thr_x", "k", "msg_x"));
        exchange.setProperty(StepContract.REQUEST, new ChatRequest("fp-1", List.of(new UiMessage("m1",
                dev.docsassistant.request.Role.USER, "How do I change the port?", null, null, null, null)), null, null, null, null,
                null, "/quickstart"));
        exchange.setProperty(StepContract.ANSWER, new StreamedAnswer("msg_x", "An answer. ".repeat(60),
                List.of(new Source("1", "https://acme.example.com/docs/configuration", "Configuration"),
                        new Source("2", "https://acme.example.com/docs/quickstart#port", "Quickstart")),
                new Usage(10, 20), true));
        exchange.getMessage().setHeader("Origin", "https://acme.example.com");
        RecordAnswer step = new RecordAnswer(new RecordWriter(null, false, 1, 1, 0, 1, 1, 24, 100_000));
        RecordAnswer.Answered answered = new RecordAnswer.Answered(new Tenant(org, domain), "thr_x", "fp-1",
                "How do I change the port?", "/quickstart", exchange.getProperty(StepContract.ANSWER,
                StreamedAnswer.class), null, "https://acme.example.com", 1L, 2L);
        for (int round = 0; round < 6; round++) {
            int n = 2_000_000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                step.process(exchange);
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < n / 4; i++) {
                sink = answered.turn();
            }
            long t2 = System.nanoTime();
            System.out.printf("round %d: capture (process) %.0f ns, the row (turn) %.0f ns%n", round,
                    (t1 - t0) / (double) n, (t2 - t1) / (double) (n / 4));
        }
    }
}
