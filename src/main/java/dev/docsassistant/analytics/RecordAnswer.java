package dev.docsassistant.analytics;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.Json;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.StreamedAnswer;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.SearchResult;
import dev.docsassistant.thread.ThreadRef;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The message pipeline's last step: the turn the reader got, queued for the store of record once the response has
 * ended (the writer's thread makes the row and writes it; this step only captures references in a bounded queue,
 * and never fails the request). It keeps what Mintlify's analytics export: resolutionStatus {@code unanswered} when the answer
 * cited no source, else {@code answered}; the caller type ({@link #callerType}); the queryCategory, the navigation
 * group of the best cited page, null when it has none; the pageUrl the question was asked on; the closest page, the search's top hit.
 */
public class RecordAnswer implements Processor {

    static final int MAX_URL = 2_000;
    private static final ObjectMapper JSON = Json.mapper();

    private final RecordWriter writer;

    public RecordAnswer(RecordWriter writer) {
        this.writer = writer;
    }

    @Override
    public void process(Exchange exchange) {
        StreamedAnswer answer = exchange.getProperty(StepContract.ANSWER, StreamedAnswer.class);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        ThreadRef thread = exchange.getProperty(StepContract.THREAD, ThreadRef.class);
        ChatRequest request = exchange.getProperty(StepContract.REQUEST, ChatRequest.class);
        if (answer == null || tenant == null || thread == null || request == null) {
            return; // the answer never began: no turn to keep
        }
        writer.offer(new Answered(tenant, thread.id(), request.fp(), request.question(), request.currentPath(), answer,
                exchange.getProperty(StepContract.SEARCH, SearchResult.class),
                exchange.getMessage().getHeader("Origin", String.class), exchange.getClock().getCreated(),
                System.currentTimeMillis()));
    }

    /**
     * A turn as the request left it: references to what the exchange already holds (no request body, which may be
     * long, only its question), so the request's share of the store of record is one small object in a queue; the
     * writer's thread makes the row ({@link #turn()}).
     */
    record Answered(Tenant tenant, String threadId, String fp, String question, String currentPath,
            StreamedAnswer answer, SearchResult search, String origin, long askedAtMillis, long answeredAtMillis)
            implements Records.Row {

        @Override
        public String organizationId() {
            return tenant.organizationId();
        }

        @Override
        public String domainId() {
            return tenant.domainId();
        }

        /** The row, on the writer's thread. */
        Records.Turn turn() {
            List<Map<String, String>> sources = answer.sources().stream()
                    .map(s -> Map.of("title", s.title() == null ? "" : s.title(), "url", s.url())).toList();
            String sourcesJson;
            try {
                sourcesJson = JSON.writeValueAsString(sources);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("The sources of a turn could not be written as JSON", e);
            }
            return new Records.Turn(organizationId(), domainId(), threadId, answer.messageId(), fp,
                    Instant.ofEpochMilli(askedAtMillis), Instant.ofEpochMilli(answeredAtMillis), question,
                    answer.text(), "answer", sourcesJson, answer.sources().isEmpty() ? "unanswered" : "answered",
                    callerType(origin), category(answer.sources(), search),
                    pageUrl(tenant.domain().siteUrl(), currentPath), closestPage(search));
        }
    }

    /**
     * Who asked: {@code web}, a browser page on an http(s) origin (the domain allowed it, or CORS refused the request
     * before this step); {@code other}, a browser context that is no web page (an {@code Origin} of another scheme,
     * an extension's, or {@code null}, a sandboxed frame's); {@code api}, a caller that sends no {@code Origin},
     * a server or a script.
     */
    static String callerType(String origin) {
        if (origin == null || origin.isBlank()) {
            return "api";
        }
        return origin.startsWith("https://") || origin.startsWith("http://") ? "web" : "other";
    }

    /** The navigation group (last breadcrumb label) of the first cited page that has one, or null. */
    static String category(List<Source> cited, SearchResult search) {
        if (cited.isEmpty() || search == null) {
            return null;
        }
        for (Source source : cited) {
            for (SearchHit hit : search.hits()) {
                List<String> breadcrumb = hit.page().breadcrumb();
                if ((source.url().equals(hit.url()) || source.url().startsWith(hit.url() + "#")) && breadcrumb != null && !breadcrumb.isEmpty()) {
                    return breadcrumb.get(breadcrumb.size() - 1);
                }
            }
        }
        return null;
    }

    /** The search's top hit, the page it came closest to; null when it found none. */
    static String closestPage(SearchResult search) {
        if (search == null || search.hits().isEmpty()) {
            return null;
        }
        String url = search.hits().get(0).url();
        return url.length() > MAX_URL ? url.substring(0, MAX_URL) : url;
    }

    /** The page the question was asked on: the request's currentPath on the domain's site URL; null for none. */
    static String pageUrl(String siteUrl, String currentPath) {
        if (currentPath == null || currentPath.isBlank()) {
            return null;
        }
        String path = currentPath.startsWith("/") ? currentPath : "/" + currentPath;
        String url = siteUrl == null || siteUrl.isBlank() ? path
                : (siteUrl.endsWith("/") ? siteUrl.substring(0, siteUrl.length() - 1) : siteUrl) + path;
        return url.length() > MAX_URL ? url.substring(0, MAX_URL) : url;
    }
}
