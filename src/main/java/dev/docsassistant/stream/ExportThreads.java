package dev.docsassistant.stream;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.ApiException;
import dev.docsassistant.ground.Json;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.thread.AdminQuery;
import dev.docsassistant.thread.ThreadStore;
import dev.docsassistant.thread.ThreadView;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.vertx.HttpMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /v1/admin/{domain}/threads?since=&until=&fp=&limit=}: the domain's threads as NDJSON, one
 * {@link ThreadView} a line, oldest first by when they were last spoken in. Each line is written as its thread is
 * read, and a slow client makes the export wait ({@link ResponseStream}), so an export of any size holds a page of
 * threads at most. A page ends after {@code limit} threads: the next starts at the last line's {@code updatedAt}
 * (threads spoken in at that very millisecond may come again; their {@code id} tells them apart).
 * <p>
 * A failure before the first line is answered as any error, with its status; after it, the status line is sent,
 * so a last line {@code {"error":{"code":…,"message":…}}} tells the client the export stopped short.
 */
public class ExportThreads implements Processor {

    private static final ObjectMapper JSON = Json.mapper();
    private static final Logger LOG = LoggerFactory.getLogger(ExportThreads.class);

    private final ThreadStore threads;
    private final OpenStreams openStreams;
    private final int defaultLimit;
    private final int maxLimit;

    public ExportThreads(ThreadStore threads, OpenStreams openStreams, int defaultLimit, int maxLimit) {
        this.threads = threads;
        this.openStreams = openStreams;
        this.defaultLimit = defaultLimit;
        this.maxLimit = maxLimit;
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        AdminQuery query = AdminQuery.of(exchange, defaultLimit, maxLimit); // 400 before the first byte
        Map<String, String> headers = new LinkedHashMap<>(ResponseHeaders.of(exchange));
        headers.put("Content-Type", "application/x-ndjson");
        headers.put("Cache-Control", "no-store");
        // The status line goes with the first line: a store failing before it is answered as any error (503, 500)
        ResponseStream[] out = {null};
        Supplier<ResponseStream> stream = () -> {
            if (out[0] == null) {
                out[0] = new ResponseStream(exchange.getMessage(HttpMessage.class).getResponse(), headers,
                        () -> { }, openStreams, "", () -> { });
            }
            return out[0];
        };
        try {
            threads.export(tenant.domainId(), query.since(), query.until(), query.fp(), query.limit(), thread -> {
                if (!thread.organizationId().equals(tenant.organizationId())) {
                    return true;
                }
                try {
                    stream.get().add(JSON.writeValueAsString(ThreadView.of(thread)) + "\n");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                } catch (Exception e) {
                    throw new IllegalStateException("A thread view always serializes", e);
                }
                return stream.get().isOpen();
            });
            stream.get().flush();
            stream.get().end();
        } catch (Exception e) {
            if (out[0] == null) {
                throw e;
            }
            // after the status line: a last line says the export is incomplete, so that it is not taken for whole
            Map<String, String> error = new LinkedHashMap<>();
            if (e instanceof ApiException refused) {
                error.put("code", refused.code());
                error.put("message", refused.getMessage());
            } else {
                LOG.error("Export of {} failed after its first line", tenant.domainId(), e);
                error.put("code", "internal_error");
                error.put("message", "The export failed; ask again from the last line's updatedAt.");
            }
            out[0].add(JSON.writeValueAsString(Map.of("error", error)) + "\n");
            out[0].flush();
            out[0].end();
        }
    }
}
