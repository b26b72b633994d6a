package dev.docsassistant.analytics;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.ground.InvalidRequestException;
import dev.docsassistant.ground.Secrets;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.request.FeedbackRequest;
import dev.docsassistant.request.SearchRequest;
import dev.docsassistant.search.Discovery;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store of record's steps besides the answer's ({@link RecordAnswer}): a search kept, a reader's rows erased,
 * the widget's page and code-snippet feedback kept, and the retention route's purge.
 */
public class RecordSteps {

    private static final Logger LOG = LoggerFactory.getLogger(RecordSteps.class);
    /** The exchange property feedback-v1.yaml keeps the answer's rating request in, for {@link #answerRating}. */
    public static final String RATING = "assistant.records.rating";
    static final int MAX_QUERY = 2_000;
    static final int MAX_PATH = 500;
    static final int MAX_RESULTS = 4_000;
    /** The exchange property discovery-v1.yaml keeps the search's request in, for {@link #search}. */
    public static final String SEARCH_REQUEST = "assistant.records.searchRequest";
    static final int MAX_CONTACT = 320;
    static final int MAX_FILENAME = 500;
    static final int MAX_LANG = 100;

    private final RecordWriter writer;
    private final Tenants tenants;
    private final int retentionDays;
    private final int maxCommentChars;
    private final int maxCodeChars;
    private final Duration clickWindow;

    /**
     * @param retentionDays   days an organization's rows are kept, unless its {@code recordsRetentionDays} in the
     *                        tenants file says otherwise
     * @param maxCommentChars the longest comment a feedback may have
     * @param maxCodeChars    the longest code a code-snippet feedback may quote
     * @param clickSeconds    how long after a search a view of a page it returned, by its visitor, is its click
     */
    public RecordSteps(RecordWriter writer, Tenants tenants, int retentionDays, int maxCommentChars,
            int maxCodeChars, int clickSeconds) {
        this.writer = writer;
        this.tenants = tenants;
        this.retentionDays = retentionDays;
        this.maxCommentChars = maxCommentChars;
        this.maxCodeChars = maxCodeChars;
        this.clickWindow = Duration.ofSeconds(clickSeconds);
    }

    /**
     * The steps the routes name (step-beans.yaml), each a Processor: no request binds a method by reflection
     * (RequestStepsTest).
     */
    public static Processor searchStep(RecordSteps steps) {
        return steps::search;
    }

    public static Processor viewStep(RecordSteps steps) {
        return steps::view;
    }

    public static Processor eraseStep(RecordSteps steps) {
        return steps::erase;
    }

    public static Processor answerRatingStep(RecordSteps steps) {
        return steps::answerRating;
    }

    public static Processor pageFeedbackStep(RecordSteps steps) {
        return exchange -> exchange.getMessage().setBody(steps.pageFeedback(exchange));
    }

    public static Processor codeFeedbackStep(RecordSteps steps) {
        return exchange -> exchange.getMessage().setBody(steps.codeFeedback(exchange));
    }

    /**
     * discovery-v1.yaml's search route, after the answer: the query (kept in {@link #SEARCH_REQUEST} before the
     * answer replaced the body), its visitor and the paths it returned (as many as fit {@link #MAX_RESULTS}), which a
     * view of by the same visitor within the click window makes a click.
     */
    public void search(Exchange exchange) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        SearchRequest request = exchange.getProperty(SEARCH_REQUEST, SearchRequest.class);
        if (request == null || request.query() == null || request.query().isBlank()
                || request.query().length() > MAX_QUERY) {
            return;
        }
        StringBuilder results = new StringBuilder("\n");
        if (exchange.getMessage().getBody() instanceof List<?> list) {
            for (Object result : list) {
                if (result instanceof Discovery.Result hit
                        && results.length() + hit.path().length() + 1 <= MAX_RESULTS) {
                    results.append(hit.path()).append('\n');
                }
            }
        }
        Instant now = Instant.now();
        writer.offer(new Records.Search(tenant.organizationId(), tenant.domainId(), request.query().strip(), now,
                visitor(tenant, client(exchange)), results.toString(), now.plus(clickWindow)));
    }

    /**
     * The page a caller was served, kept (after the answer, so a page not found is not): discovery-v1.yaml's
     * {@code /v1/page} (its body the page) and agents.yaml's {@code /sites/{domain}/<path>.md} (its path in the URL).
     * The visitor is a hash of the caller's address; the traffic human when a web page asked ({@code Origin}
     * http(s), the turns' caller type {@code web}), else ai.
     */
    public void view(Exchange exchange) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        String path = exchange.getMessage().getBody() instanceof Discovery.PageContent page ? page.path()
                : sitePath(exchange.getMessage().getHeader(Exchange.HTTP_PATH, String.class), tenant.domainId());
        if (path == null || path.length() > MAX_PATH) {
            return;
        }
        String traffic = RecordAnswer.callerType(exchange.getMessage().getHeader("Origin", String.class))
                .equals("web") ? "human" : "ai";
        writer.offer(new Records.View(tenant.organizationId(), tenant.domainId(), path, visitor(tenant, client(exchange)),
                traffic, Instant.now()));
    }

    private static String client(Exchange exchange) {
        return Objects.requireNonNullElse(exchange.getProperty(StepContract.CLIENT_IP, String.class), "");
    }

    /** A visitor's id: a hash of its address, per organization, never the address. */
    static String visitor(Tenant tenant, String client) {
        return Secrets.sha256(tenant.organizationId() + "\n" + client).substring(0, 32);
    }

    /** The page's path of a {@code /sites/{domain}/<path>.md} request, {@code /} for the site's root; or null. */
    static String sitePath(String requestPath, String domainId) {
        String prefix = "/sites/" + domainId;
        int at = requestPath == null ? -1 : requestPath.indexOf(prefix);
        if (at < 0) {
            return null;
        }
        String route = requestPath.substring(at + prefix.length());
        route = route.endsWith(".md") ? route.substring(0, route.length() - ".md".length()) : route;
        return route.isEmpty() ? "/" : route;
    }

    /**
     * admin-threads.yaml's erasure, before the thread store's: the reader's rows in the database and in the
     * writer's queue. A database that cannot be reached refuses the erasure (503), so it is never reported done
     * while the rows remain.
     */
    public void erase(Exchange exchange) {
        String fp = exchange.getMessage().getHeader("fp", String.class);
        if (fp == null || fp.isBlank()) {
            return; // the thread store's erasure refuses it (400)
        }
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        try {
            int erased = writer.erase(tenant.organizationId(), tenant.domainId(), fp);
            LOG.info("Erased {} records of a reader of domain '{}'", erased, tenant.domainId());
        } catch (SQLException e) {
            throw new AnalyticsUnavailableException();
        }
    }

    /** {@code POST /v1/assistant/{domain}/feedback/page}: "was this page helpful?", with an optional contact. */
    public Map<String, Object> pageFeedback(Exchange exchange) {
        PageFeedback body = body(exchange, PageFeedback.class);
        String path = path(body.path());
        if (body.helpful() == null) {
            throw new InvalidRequestException("helpful", "helpful is required: true or false");
        }
        bounded(body.contact(), "contact", MAX_CONTACT);
        bounded(body.comment(), "comment", maxCommentChars);
        bounded(body.fp(), "fp", 200);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        writer.offer(new Records.Feedback(tenant.organizationId(), tenant.domainId(), body.fp(), "contextual", path,
                body.helpful(), blankToNull(body.contact()), blankToNull(body.comment()), null, null, null, null,
                null, Instant.now()));
        return accepted();
    }

    /** {@code POST /v1/assistant/{domain}/feedback/code}: feedback on a code snippet of a page. */
    public Map<String, Object> codeFeedback(Exchange exchange) {
        CodeFeedback body = body(exchange, CodeFeedback.class);
        String path = path(body.path());
        if (body.code() == null || body.code().isBlank()) {
            throw new InvalidRequestException("code", "code is required: the snippet the feedback is about");
        }
        bounded(body.code(), "code", maxCodeChars);
        bounded(body.filename(), "filename", MAX_FILENAME);
        bounded(body.lang(), "lang", MAX_LANG);
        bounded(body.comment(), "comment", maxCommentChars);
        bounded(body.fp(), "fp", 200);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        writer.offer(new Records.Feedback(tenant.organizationId(), tenant.domainId(), body.fp(), "code_snippet", path,
                null, null, blankToNull(body.comment()), body.code(), blankToNull(body.filename()),
                blankToNull(body.lang()), null, null, Instant.now()));
        return accepted();
    }

    /**
     * An agent's report on a page (the MCP server's {@code submit_feedback}): kept as unhelpful {@code agent}
     * feedback on the page, as Mintlify records it.
     *
     * @throws InvalidRequestException for a path that is not a page path or a report empty or too long
     */
    public void agentFeedback(Tenant tenant, String path, String feedback) {
        String page = path(path);
        if (feedback == null || feedback.isBlank()) {
            throw new InvalidRequestException("feedback", "feedback is required: what is wrong with the page");
        }
        bounded(feedback, "feedback", maxCommentChars);
        writer.offer(new Records.Feedback(tenant.organizationId(), tenant.domainId(), null, "agent", page, false, null,
                feedback.strip(), null, null, null, null, null, Instant.now()));
    }

    /**
     * feedback-v1.yaml's answer rating, once the thread store accepted it (so no rating of another reader's answer is
     * kept): the request, which the route left in {@value #RATING}, queued as an {@code assistant} feedback.
     */
    public void answerRating(Exchange exchange) {
        FeedbackRequest request = exchange.getProperty(RATING, FeedbackRequest.class);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        writer.offer(new Records.Feedback(tenant.organizationId(), tenant.domainId(), request.fp(), "assistant", null,
                request.rating() == FeedbackRequest.Rating.UP, null, blankToNull(request.comment()), null, null, null,
                request.threadId(), request.messageId(), Instant.now()));
    }

    /** The retention route's purge: each organization's rows older than its retention (the tenants file's, read now). */
    public void purge() {
        Map<String, Integer> organizations = new LinkedHashMap<>();
        tenants.tenants().forEach(tenant -> organizations.put(tenant.organizationId(),
                tenant.organization().recordsRetentionDays() == null ? retentionDays
                        : tenant.organization().recordsRetentionDays()));
        for (Map.Entry<String, Integer> entry : organizations.entrySet()) {
            String organization = entry.getKey();
            int days = entry.getValue();
            try {
                int purged = writer.records().purge(organization, Instant.now().minus(Duration.ofDays(days)));
                if (purged > 0) {
                    LOG.info("Purged {} records of organization '{}' older than {} days", purged, organization, days);
                }
            } catch (SQLException e) {
                LOG.warn("Could not purge the records of organization '{}': {}", organization, e.toString());
            }
        }
    }

    /** A reader's rating of a page. */
    public record PageFeedback(String fp, String path, Boolean helpful, String contact, String comment) {
    }

    /** A reader's feedback on a code snippet. */
    public record CodeFeedback(String fp, String path, String code, String filename, String lang, String comment) {
    }

    private static <T> T body(Exchange exchange, Class<T> type) {
        T body = exchange.getMessage().getBody(type);
        if (body == null) {
            throw new InvalidRequestException(null, "The request body must be a JSON object");
        }
        return body;
    }

    private static String path(String path) {
        if (path == null || !path.startsWith("/") || path.length() > RecordAnswer.MAX_URL) {
            throw new InvalidRequestException("path", "path is required: the page's path, starting with '/', at "
                    + "most " + RecordAnswer.MAX_URL + " characters");
        }
        return path;
    }

    private static void bounded(String value, String field, int max) {
        if (value != null && value.length() > max) {
            throw new InvalidRequestException(field, field + " must be at most " + max + " characters");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static Map<String, Object> accepted() {
        return Map.of("status", "accepted");
    }
}
