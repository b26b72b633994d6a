package dev.docsassistant.analytics;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.InvalidRequestException;
import dev.docsassistant.ground.Json;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.ratelimit.RateLimitExceededException;
import dev.docsassistant.ratelimit.RateLimiter;
import dev.docsassistant.thread.ThreadNotFoundException;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;

/**
 * Mintlify's analytics API, answered from the store of record (analytics.yaml's steps, admin keys only): the
 * assistant's turns, one conversation, the callers, the feedback, by page too, and the searches, with Mintlify's
 * field names, filters and paging. Every call counts against the organization's hourly analytics quota, shared by
 * all these endpoints; a store that cannot be reached answers 503.
 */
public class Analytics implements Processor {

    /** Mintlify's sources; {@code assistant}, the name answer ratings had here, is kept as {@code thumbs_only}'s. */
    static final Set<String> FEEDBACK_SOURCES = Set.of("contextual", "code_snippet", "agent", "thumbs_only",
            "assistant");
    /** An answer's rating is kept as {@code assistant} and read as Mintlify's thumbs up/down vote. */
    private static final String RATING_SOURCE = "thumbs_only";
    static final Set<String> FEEDBACK_STATUSES = Set.of("pending", "in_progress", "resolved", "dismissed");
    private static final ObjectMapper JSON = Json.mapper();
    private static final Duration HOUR = Duration.ofHours(1);
    /** The dashboard's no-result searches: the most frequent this many. */
    private static final int NO_RESULT_SEARCHES = 20;

    private final Records records;
    private final RateLimiter limiter;
    private final long perHour;

    /** @param perHour analytics requests an organization may make per hour, all endpoints together */
    public Analytics(Records records, RateLimiter limiter, long perHour) {
        this.records = records;
        this.limiter = limiter;
        this.perHour = perHour;
    }

    /** The exchange property naming the view a route answers (analytics.yaml sets it, a constant per route). */
    public static final String VIEW = "assistant.analyticsView";

    /**
     * One analytics call: counted against the quota, then answered by the view its route names. A switch rather than
     * a {@code bean:} step per view: no request binds a method by reflection (RequestStepsTest).
     */
    @Override
    public void process(Exchange exchange) {
        admit(exchange);
        String view = exchange.getProperty(VIEW, String.class);
        exchange.getMessage().setBody(switch (view) {
            case "assistant" -> assistant(exchange);
            case "thread" -> thread(exchange);
            case "callerStats" -> callerStats(exchange);
            case "feedback" -> feedback(exchange);
            case "feedbackByPage" -> feedbackByPage(exchange);
            case "searches" -> searches(exchange);
            case "views" -> traffic(exchange, "views", "", "id");
            case "visitors" -> traffic(exchange, "visitors", "DISTINCT ", "visitor");
            case "dashboard" -> dashboard(exchange);
            default -> throw new IllegalStateException("no analytics view " + view);
        });
    }

    /** Counts the call against the organization's analytics quota, or refuses it (429, Retry-After). */
    public void admit(Exchange exchange) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        RateLimiter.Decision decision = limiter.acquire("analytics:" + tenant.organizationId(), perHour, HOUR);
        ResponseHeaders.set(exchange, "X-RateLimit-Limit", decision.limit());
        ResponseHeaders.set(exchange, "X-RateLimit-Remaining", decision.remaining());
        ResponseHeaders.set(exchange, "X-RateLimit-Reset", decision.resetEpochSecond());
        ResponseHeaders.set(exchange, "X-RateLimit-Scope", "analytics");
        if (!decision.allowed()) {
            ResponseHeaders.set(exchange, "Retry-After",
                    decision.retryAfterSeconds(Instant.now().getEpochSecond()));
            exchange.setProperty(StepContract.RATE_LIMIT, "refused:analytics");
            throw new RateLimitExceededException("This organization has used its " + perHour
                    + " analytics requests for this hour");
        }
    }

    /** {@code GET /v1/analytics/{domain}/assistant}: one row per user turn, newest first. */
    public Map<String, Object> assistant(Exchange exchange) {
        Message message = exchange.getMessage();
        AnalyticsQuery query = AnalyticsQuery.of(message, 100, 1000);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        // pageUrl as Mintlify's: where the conversation started, its first turn's page; this turn's is turnPageUrl
        List<Map<String, Object>> rows = select("SELECT id, thread_id, message_id, asked_at, question, answer, "
                + "response_type, sources, resolution_status, query_category, page_url, caller_type, "
                + "(SELECT f.page_url FROM turns f WHERE f.organization_id = turns.organization_id "
                + "AND f.domain_id = turns.domain_id AND f.thread_id = turns.thread_id ORDER BY f.asked_at, f.id "
                + "LIMIT 1) FROM turns "
                + "WHERE organization_id = ? AND domain_id = ? AND asked_at >= ? AND asked_at < ? AND id < ? "
                + "ORDER BY id DESC LIMIT ?", rs -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("cursor", rs.getLong(1));
                    row.put("id", rs.getString(2));
                    row.put("conversationId", rs.getString(2));
                    row.put("messageId", rs.getString(3));
                    row.put("timestamp", instant(rs, 4));
                    row.put("query", rs.getString(5));
                    row.put("response", rs.getString(6));
                    row.put("responseType", rs.getString(7));
                    row.put("sources", json(rs.getString(8)));
                    row.put("resolutionStatus", rs.getString(9));
                    row.put("queryCategory", rs.getString(10));
                    row.put("pageUrl", rs.getString(13));
                    row.put("turnPageUrl", rs.getString(11));
                    row.put("callerType", rs.getString(12));
                    return row;
                }, tenant.organizationId(), tenant.domainId(), records.time(query.from()), records.time(query.to()),
                query.cursor(), query.limit() + 1);
        return page("conversations", rows, query.limit());
    }

    /** {@code GET /v1/analytics/{domain}/assistant/threads/{threadId}}: the conversation's messages in order. */
    public Map<String, Object> thread(Exchange exchange) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        String threadId = exchange.getMessage().getHeader("threadId", String.class);
        if (threadId == null || threadId.length() > 200) {
            throw new ThreadNotFoundException();
        }
        List<Map<String, Object>> messages = new ArrayList<>();
        select("SELECT message_id, asked_at, question, answered_at, answer FROM turns WHERE organization_id = ? "
                + "AND domain_id = ? AND thread_id = ? ORDER BY asked_at, id", rs -> {
                    String asked = instant(rs, 2);
                    String answered = instant(rs, 4);
                    messages.add(message(rs.getString(1) + "-q", "user", rs.getString(3), asked));
                    messages.add(message(rs.getString(1), "assistant", rs.getString(5),
                            answered == null ? asked : answered));
                    return null;
                }, tenant.organizationId(), tenant.domainId(), threadId);
        if (messages.isEmpty()) {
            throw new ThreadNotFoundException();
        }
        // Mintlify's shape (threadId, createdAt, messages[].createdAt); id and timestamp stay for this API's clients
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("threadId", threadId);
        body.put("createdAt", messages.get(0).get("createdAt"));
        body.put("id", threadId);
        body.put("messages", messages);
        return body;
    }

    private static Map<String, Object> message(String id, String role, String content, String createdAt) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("id", id);
        message.put("role", role);
        message.put("content", content == null ? "" : content);
        message.put("createdAt", createdAt);
        message.put("timestamp", createdAt);
        return message;
    }

    /** {@code GET /v1/analytics/{domain}/assistant/caller-stats}: questions by caller type, and their total. */
    public Map<String, Object> callerStats(Exchange exchange) {
        AnalyticsQuery query = AnalyticsQuery.of(exchange.getMessage(), 1, Integer.MAX_VALUE);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        Map<String, Object> stats = new LinkedHashMap<>(Map.of("web", 0L, "api", 0L, "other", 0L));
        select("SELECT caller_type, COUNT(*) FROM turns WHERE organization_id = ? AND domain_id = ? "
                + "AND asked_at >= ? AND asked_at < ? GROUP BY caller_type",
                rs -> stats.put(rs.getString(1), rs.getLong(2)), tenant.organizationId(), tenant.domainId(),
                records.time(query.from()), records.time(query.to()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("web", stats.get("web"));
        body.put("api", stats.get("api"));
        body.put("other", stats.get("other"));
        body.put("total", (long) stats.get("web") + (long) stats.get("api") + (long) stats.get("other"));
        return body;
    }

    /** {@code GET /v1/analytics/{domain}/feedback}: ratings and feedback, newest first, by source and status. */
    public Map<String, Object> feedback(Exchange exchange) {
        AnalyticsQuery query = AnalyticsQuery.of(exchange.getMessage(), 50, 100);
        List<Object> parameters = new ArrayList<>();
        String where = feedbackWhere(exchange, query, parameters) + " AND id < ?";
        parameters.add(query.cursor());
        parameters.add(query.limit() + 1);
        List<Map<String, Object>> rows = select("SELECT id, path, comment, created_at, source, status, helpful, "
                + "contact, code, filename, lang, thread_id, message_id FROM feedback" + where
                + " ORDER BY id DESC LIMIT ?", rs -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("cursor", rs.getLong(1));
                    row.put("id", "fb_" + rs.getLong(1));
                    // a string, as Mintlify's schema requires: an answer's rating rates no page
                    row.put("path", rs.getString(2) == null ? "" : rs.getString(2));
                    row.put("comment", rs.getString(3));
                    row.put("createdAt", instant(rs, 4));
                    String source = rs.getString(5);
                    row.put("source", source.equals("assistant") ? RATING_SOURCE : source);
                    row.put("status", rs.getString(6));
                    if (source.equals("contextual")) {
                        row.put("helpful", bool(rs, 7));
                        row.put("contact", rs.getString(8));
                    } else if (source.equals("code_snippet")) {
                        row.put("code", rs.getString(9));
                        row.put("filename", rs.getString(10));
                        row.put("lang", rs.getString(11));
                    } else if (source.equals("assistant")) {
                        row.put("helpful", bool(rs, 7));
                        row.put("threadId", rs.getString(12));
                        row.put("messageId", rs.getString(13));
                    }
                    return row;
                }, parameters.toArray());
        return page("feedback", rows, query.limit());
    }

    /** The body of a feedback row's status update: one of {@link #FEEDBACK_STATUSES}. */
    public record StatusUpdate(String status) {
    }

    /**
     * analytics.yaml's {@code PATCH /v1/analytics/{domain}/feedback/{feedbackId}} step: the row's triage status set
     * (counted against the analytics quota like a read), answered with the status; a row of another domain, or none,
     * is 404 and a status not among {@link #FEEDBACK_STATUSES} 400.
     */
    public static Processor feedbackStatus(Analytics analytics) {
        return analytics::updateFeedbackStatus;
    }

    private void updateFeedbackStatus(Exchange exchange) {
        admit(exchange);
        StatusUpdate update = exchange.getMessage().getBody(StatusUpdate.class);
        if (update == null || !FEEDBACK_STATUSES.contains(update.status())) {
            throw new InvalidRequestException("status", "status must be one of " + FEEDBACK_STATUSES);
        }
        String id = exchange.getMessage().getHeader("feedbackId", String.class);
        long row;
        try {
            row = id != null && id.startsWith("fb_") ? Long.parseLong(id.substring(3)) : -1;
        } catch (NumberFormatException e) {
            row = -1;
        }
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        try (Connection connection = records.connection();
                PreparedStatement statement = connection.prepareStatement("UPDATE feedback SET status = ? "
                        + "WHERE id = ? AND organization_id = ? AND domain_id = ?")) {
            Records.bind(statement, update.status(), row, tenant.organizationId(), tenant.domainId());
            if (row < 0 || statement.executeUpdate() == 0) {
                throw new FeedbackNotFoundException();
            }
        } catch (SQLException e) {
            throw new AnalyticsUnavailableException();
        }
        exchange.getMessage().setBody(Map.of("id", id, "status", update.status()));
    }

    /** {@code GET /v1/analytics/{domain}/feedback/by-page}: per page path, feedback counts by type, most first. */
    public Map<String, Object> feedbackByPage(Exchange exchange) {
        AnalyticsQuery query = AnalyticsQuery.of(exchange.getMessage(), 10, 100);
        List<Object> parameters = new ArrayList<>();
        String where = feedbackWhere(exchange, query, parameters);
        parameters.add(query.limit() + 1);
        List<Map<String, Object>> rows = select("SELECT path, "
                + "SUM(CASE WHEN source = 'contextual' AND helpful THEN 1 ELSE 0 END), "
                + "SUM(CASE WHEN source = 'contextual' AND NOT helpful THEN 1 ELSE 0 END), "
                + "SUM(CASE WHEN source = 'code_snippet' THEN 1 ELSE 0 END), COUNT(*) FROM feedback" + where
                + " AND path IS NOT NULL GROUP BY path ORDER BY COUNT(*) DESC, path LIMIT ?", rs -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("path", rs.getString(1));
                    row.put("thumbsUp", rs.getLong(2));
                    row.put("thumbsDown", rs.getLong(3));
                    row.put("code", rs.getLong(4));
                    row.put("total", rs.getLong(5));
                    return row;
                }, parameters.toArray());
        boolean more = rows.size() > query.limit();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("feedback", more ? rows.subList(0, query.limit()) : rows);
        body.put("hasMore", more);
        return body;
    }

    /** The WHERE clause of both feedback endpoints: the domain, the dates, the source and status filters. */
    private String feedbackWhere(Exchange exchange, AnalyticsQuery query, List<Object> parameters) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        parameters.addAll(List.of(tenant.organizationId(), tenant.domainId(), records.time(query.from()),
                records.time(query.to())));
        return " WHERE organization_id = ? AND domain_id = ? AND created_at >= ? AND created_at < ?"
                + FeedbackFilter.of(exchange.getMessage()).where(parameters);
    }

    /** {@code GET /v1/analytics/{domain}/searches}: search terms by how often searched, the cursor an offset. */
    public Map<String, Object> searches(Exchange exchange) {
        Message message = exchange.getMessage();
        AnalyticsQuery query = AnalyticsQuery.of(message, 50, 100);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        long offset = query.cursor() == AnalyticsQuery.NO_CURSOR ? 0 : query.cursor();
        Object[] range = {tenant.organizationId(), tenant.domainId(), records.time(query.from()),
                records.time(query.to())};
        List<Map<String, Object>> rows = select("SELECT query, COUNT(*), MAX(searched_at) FROM searches "
                + "WHERE organization_id = ? AND domain_id = ? AND searched_at >= ? AND searched_at < ? "
                + "GROUP BY query ORDER BY COUNT(*) DESC, query LIMIT ? OFFSET ?", rs -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("searchQuery", rs.getString(1));
                    row.put("hits", rs.getLong(2));
                    row.put("ctr", 0.0);
                    row.put("topClickedPage", null); // clicks(), once the page is known
                    row.put("lastSearchedAt", instant(rs, 3));
                    return row;
                }, range[0], range[1], range[2], range[3], query.limit() + 1, offset);
        long[] total = {0};
        select("SELECT COUNT(*) FROM searches WHERE organization_id = ? AND domain_id = ? AND searched_at >= ? "
                + "AND searched_at < ?", rs -> total[0] = rs.getLong(1), range);
        boolean more = rows.size() > query.limit();
        List<Map<String, Object>> kept = more ? rows.subList(0, query.limit()) : rows;
        clicks(kept, range);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("searches", kept);
        body.put("totalSearches", total[0]);
        body.put("nextCursor", more ? Long.toString(offset + query.limit()) : null);
        return body;
    }

    /**
     * The searches' clicks, computed from the rows kept: a search is clicked when its visitor viewed a page it
     * returned before its {@code click_until}; {@code ctr} is the share of the query's searches clicked,
     * {@code topClickedPage} the path clicked after most of them.
     */
    private void clicks(List<Map<String, Object>> terms, Object[] range) {
        if (terms.isEmpty()) {
            return;
        }
        Map<String, Map<String, Object>> byQuery = new LinkedHashMap<>();
        terms.forEach(term -> byQuery.put((String) term.get("searchQuery"), term));
        List<Object> parameters = new ArrayList<>(List.of("%\n", "\n%"));
        parameters.addAll(List.of(range));
        parameters.addAll(byQuery.keySet());
        String joined = " FROM searches s JOIN page_views v ON v.organization_id = s.organization_id "
                + "AND v.domain_id = s.domain_id AND v.visitor = s.visitor AND v.viewed_at >= s.searched_at "
                + "AND v.viewed_at < s.click_until AND s.results LIKE ? || v.path || ? WHERE s.organization_id = ? "
                + "AND s.domain_id = ? AND s.searched_at >= ? AND s.searched_at < ? AND s.query IN ("
                + "?,".repeat(byQuery.size() - 1) + "?) GROUP BY s.query";
        select("SELECT s.query, COUNT(DISTINCT s.id)" + joined, rs -> {
            Map<String, Object> term = byQuery.get(rs.getString(1));
            return term.put("ctr", (double) rs.getLong(2) / (long) term.get("hits"));
        }, parameters.toArray());
        select("SELECT s.query, v.path, COUNT(DISTINCT s.id)" + joined + ", v.path ORDER BY 3 DESC, v.path",
                rs -> byQuery.get(rs.getString(1)).putIfAbsent("topClickedPage", rs.getString(2)),
                parameters.toArray());
    }

    /**
     * {@code GET /v1/analytics/{domain}/views} and {@code /visitors}: the pages served ({@code /v1/page}, a site's
     * {@code .md}), site-wide and per path, most first, by traffic (human or ai), counting {@code distinct}
     * {@code column}: every view ({@code id}) or each visitor once ({@code DISTINCT visitor}, the total deduplicated
     * across human and ai).
     */
    private Map<String, Object> traffic(Exchange exchange, String name, String distinct, String column) {
        AnalyticsQuery query = AnalyticsQuery.of(exchange.getMessage(), 50, 250);
        long offset = AnalyticsQuery.offset(exchange.getMessage());
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        String counts = "COUNT(" + distinct + "CASE WHEN traffic = 'human' THEN " + column + " END), COUNT("
                + distinct + "CASE WHEN traffic = 'ai' THEN " + column + " END), COUNT(" + distinct + column + ")";
        String where = " FROM page_views WHERE organization_id = ? AND domain_id = ? AND viewed_at >= ? "
                + "AND viewed_at < ?";
        Object[] range = {tenant.organizationId(), tenant.domainId(), records.time(query.from()),
                records.time(query.to())};
        List<Map<String, Object>> totals = select("SELECT " + counts + where, rs -> counts(rs, 1, null), range);
        List<Map<String, Object>> rows = select("SELECT path, " + counts + where + " GROUP BY path "
                + "ORDER BY COUNT(" + distinct + column + ") DESC, path LIMIT ? OFFSET ?", rs -> counts(rs, 2,
                        rs.getString(1)), range[0], range[1], range[2], range[3], query.limit() + 1, offset);
        boolean more = rows.size() > query.limit();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("totals", totals.get(0));
        body.put(name, more ? rows.subList(0, query.limit()) : rows);
        body.put("hasMore", more);
        return body;
    }

    /** Human, ai and total counts from {@code first} on, after the path when there is one. */
    private static Map<String, Object> counts(ResultSet rs, int first, String path) throws SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        if (path != null) {
            row.put("path", path);
        }
        row.put("human", rs.getLong(first));
        row.put("ai", rs.getLong(first + 1));
        row.put("total", rs.getLong(first + 2));
        return row;
    }

    /**
     * {@code GET /v1/analytics/{domain}/dashboard}: what the dashboard page draws, in one call (one of the hour's
     * quota): questions per day (UTC) and how many went unanswered, the share unanswered, the most asked unanswered
     * questions, ratings by page, caller types, the top searches (with their ctr) and the searches that found nothing
     * most often, for {@code dateFrom}/{@code dateTo}.
     */
    public Map<String, Object> dashboard(Exchange exchange) {
        AnalyticsQuery query = AnalyticsQuery.of(exchange.getMessage(), 1, Integer.MAX_VALUE);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        Object[] range = {tenant.organizationId(), tenant.domainId(), records.time(query.from()),
                records.time(query.to())};
        Map<String, long[]> days = new java.util.TreeMap<>();
        select("SELECT asked_at, resolution_status FROM turns WHERE organization_id = ? AND domain_id = ? "
                + "AND asked_at >= ? AND asked_at < ?", rs -> {
                    long[] day = days.computeIfAbsent(instant(rs, 1).substring(0, 10), d -> new long[2]);
                    day[0]++;
                    day[1] += "unanswered".equals(rs.getString(2)) ? 1 : 0;
                    return null;
                }, range);
        long questions = days.values().stream().mapToLong(d -> d[0]).sum();
        long unanswered = days.values().stream().mapToLong(d -> d[1]).sum();
        List<Map<String, Object>> perDay = new ArrayList<>();
        days.forEach((day, counts) -> perDay.add(Map.of("day", day, "questions", counts[0],
                "unanswered", counts[1])));
        List<Map<String, Object>> topUnanswered = select("SELECT question, COUNT(*) FROM turns "
                + "WHERE organization_id = ? AND domain_id = ? AND asked_at >= ? AND asked_at < ? "
                + "AND resolution_status = 'unanswered' GROUP BY question ORDER BY COUNT(*) DESC, question LIMIT 10",
                rs -> Map.of("query", rs.getString(1), "count", rs.getLong(2)), range);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("questions", questions);
        body.put("unanswered", unanswered);
        body.put("unansweredShare", questions == 0 ? 0.0 : (double) unanswered / questions);
        body.put("questionsPerDay", perDay);
        body.put("topUnanswered", topUnanswered);
        body.put("ratingsByPage", feedbackByPage(exchange).get("feedback"));
        body.put("callerTypes", callerStats(exchange));
        body.put("topSearches", searches(exchange).get("searches"));
        // a search that returned nothing keeps exactly "\n"; rows from before V56 keep NULL and are not counted
        body.put("noResultSearches", select("SELECT query, COUNT(*) FROM searches WHERE organization_id = ? "
                + "AND domain_id = ? AND searched_at >= ? AND searched_at < ? AND results = ? GROUP BY query "
                + "ORDER BY COUNT(*) DESC, query LIMIT " + NO_RESULT_SEARCHES,
                rs -> Map.of("query", rs.getString(1), "count", rs.getLong(2)), range[0], range[1], range[2],
                range[3], "\n"));
        return body;
    }

    /** A page of rows fetched one past the limit: the extra row says there is more, the last kept row's id is the cursor. */
    private static Map<String, Object> page(String name, List<Map<String, Object>> rows, int limit) {
        boolean more = rows.size() > limit;
        List<Map<String, Object>> kept = more ? rows.subList(0, limit) : rows;
        Object cursor = more ? kept.get(kept.size() - 1).get("cursor").toString() : null;
        kept.forEach(row -> row.remove("cursor"));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put(name, kept);
        body.put("nextCursor", cursor);
        body.put("hasMore", more);
        return body;
    }

    /** The source and status filters of the feedback endpoints. */
    private record FeedbackFilter(String source, List<String> statuses) {

        static FeedbackFilter of(Message message) {
            String source = message.getHeader("source", String.class);
            if (source != null && !FEEDBACK_SOURCES.contains(source)) {
                throw new InvalidRequestException("source", "source must be one of " + FEEDBACK_SOURCES);
            }
            if (RATING_SOURCE.equals(source)) {
                source = "assistant";
            }
            String status = message.getHeader("status", String.class);
            List<String> statuses = status == null ? List.of() : List.of(status.split(","));
            for (String one : statuses) {
                if (!FEEDBACK_STATUSES.contains(one)) {
                    throw new InvalidRequestException("status", "status must be a comma-separated list of "
                            + FEEDBACK_STATUSES);
                }
            }
            return new FeedbackFilter(source, statuses);
        }

        /** The filter as SQL after a WHERE, its values added to {@code parameters}. */
        String where(List<Object> parameters) {
            StringBuilder where = new StringBuilder();
            if (source != null) {
                where.append(" AND source = ?");
                parameters.add(source);
            }
            if (!statuses.isEmpty()) {
                where.append(" AND status IN (").append("?,".repeat(statuses.size() - 1)).append("?)");
                parameters.addAll(statuses);
            }
            return where.toString();
        }
    }

    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> List<T> select(String sql, RowReader<T> reader, Object... parameters) {
        try (Connection connection = records.connection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            Records.bind(statement, parameters);
            List<T> rows = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    rows.add(reader.read(rs));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new AnalyticsUnavailableException();
        }
    }

    private String instant(ResultSet rs, int column) throws SQLException {
        Instant time = records.instant(rs, column);
        return time == null ? null : time.toString();
    }

    /** A nullable boolean column as JSON's true, false or null (SQLite keeps 1 or 0). */
    private static Boolean bool(ResultSet rs, int column) throws SQLException {
        boolean value = rs.getBoolean(column);
        return rs.wasNull() ? null : value;
    }

    private static JsonNode json(String text) throws SQLException {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new SQLException("A stored sources list is not JSON", e);
        }
    }
}
