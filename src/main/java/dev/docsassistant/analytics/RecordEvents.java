package dev.docsassistant.analytics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.function.Predicate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.ground.Json;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.component.seda.SedaEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every row the store of record has committed, offered as a JSON event to {@value #ENDPOINT}, where a route (a Pipe
 * in {@code assistant.routes-dir}, its sink any Kamelet: Kafka, S3, HTTP) takes it: an answered question
 * ({@code answer}), an answer's rating ({@code rating}), a page's or a code snippet's feedback ({@code feedback}), a
 * search ({@code search}). Offered after the commit, on the writer's thread, without waiting: the queue holds 1,000
 * events, and past it (no route, or a sink slower than the readers) an event is dropped and counted in the log; the
 * store keeps it, so nothing is lost that the analytics API cannot still export. The reader's fingerprint is left out.
 * Only rows the store holds become events (not those its tombstones removed), and an erasure takes its reader's events
 * still queued out of the queue.
 */
public class RecordEvents {

    /** The in-memory queue a route reads the events from. */
    public static final String ENDPOINT = "seda:record-events";
    /** The exchange property holding an event's row. */
    private static final String ROW = "assistant.record";
    private static final Logger LOG = LoggerFactory.getLogger(RecordEvents.class);
    private static final ObjectMapper JSON = Json.mapper();

    private final boolean enabled;
    private ProducerTemplate producer;
    private long dropped;

    /** @param enabled false offers nothing (no route takes the events) */
    public RecordEvents(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * The rows of a committed batch, each as an event (the writer's thread, holding its lock, with the writer's
     * context). Each event's exchange carries its row in a property ({@value #ROW}) that no sink sends on: an erasure
     * finds by it the events of its reader still queued ({@link #erase}).
     */
    void offer(CamelContext context, List<Records.Row> batch) {
        if (!enabled) {
            return;
        }
        if (producer == null) {
            producer = context.createProducerTemplate();
        }
        for (Records.Row row : batch) {
            try {
                String json = JSON.writeValueAsString(event(row));
                Exception refused = producer.send(ENDPOINT, exchange -> {
                    exchange.getMessage().setBody(json);
                    exchange.setProperty(ROW, row);
                }).getException();
                if (refused != null) {
                    throw refused;
                }
            } catch (Exception e) {
                if (dropped++ % 1000 == 0) {
                    LOG.warn("{} record events dropped so far (the store of record keeps them): {}", dropped,
                            e.getMessage());
                }
            }
        }
    }

    /**
     * Removes the queued events of the rows {@code erased} matches (the writer's thread or an erasure, holding the
     * writer's lock, so no event of the reader is queued meanwhile); the number removed. An event a route has
     * already taken from the queue is past recall.
     */
    int erase(CamelContext context, Predicate<Records.Row> erased) {
        if (!enabled || context == null) {
            return 0;
        }
        BlockingQueue<Exchange> queue = queue(context);
        int before = queue.size();
        queue.removeIf(exchange -> exchange.getProperty(ROW) instanceof Records.Row row && erased.test(row));
        return Math.max(0, before - queue.size());
    }

    /** Events waiting in the queue; none when off. */
    int queued(CamelContext context) {
        return !enabled || context == null ? 0 : queue(context).size();
    }

    private static BlockingQueue<Exchange> queue(CamelContext context) {
        return context.getEndpoint(ENDPOINT, SedaEndpoint.class).getQueue();
    }

    static Map<String, Object> event(Records.Row row) throws JsonProcessingException {
        Map<String, Object> event = new LinkedHashMap<>();
        if (row instanceof RecordAnswer.Answered answered) {
            row = answered.turn();
        }
        if (row instanceof Records.Turn t) {
            event.put("type", "answer");
            event.put("domain", t.domainId());
            event.put("threadId", t.threadId());
            event.put("messageId", t.messageId());
            event.put("timestamp", t.askedAt().toString());
            event.put("question", t.question());
            event.put("answer", t.answer());
            event.put("sources", JSON.readTree(t.sources()));
            event.put("resolutionStatus", t.resolutionStatus());
            event.put("callerType", t.callerType());
            event.put("queryCategory", t.queryCategory());
            event.put("pageUrl", t.pageUrl());
        } else if (row instanceof Records.Feedback f) {
            event.put("type", f.source().equals("assistant") ? "rating" : "feedback");
            event.put("domain", f.domainId());
            event.put("source", f.source());
            event.put("timestamp", f.createdAt().toString());
            event.put("path", f.path());
            event.put("helpful", f.helpful());
            event.put("comment", f.comment());
            event.put("code", f.code());
            event.put("filename", f.filename());
            event.put("lang", f.lang());
            event.put("threadId", f.threadId());
            event.put("messageId", f.messageId());
        } else if (row instanceof Records.Search s) {
            event.put("type", "search");
            event.put("domain", s.domainId());
            event.put("timestamp", s.searchedAt().toString());
            event.put("query", s.query());
        } else if (row instanceof Records.View v) {
            event.put("type", "view");
            event.put("domain", v.domainId());
            event.put("timestamp", v.viewedAt().toString());
            event.put("path", v.path());
            event.put("traffic", v.traffic());
        }
        return event;
    }
}
