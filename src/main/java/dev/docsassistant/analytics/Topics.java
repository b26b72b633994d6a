package dev.docsassistant.analytics;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.search.SentenceVectors;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The questions grouped by meaning: categories and topics ({@link TopicModel}), kept in the store of record.
 * {@link #group} runs in the background (analytics.yaml's timer), never on a request's path: each run embeds at
 * most {@code batch} ungrouped questions with the service's sentence encoder, adds each to the nearest topic of its
 * domain, and writes the domain's groups and the turns' topics (queryCategory the category's label) in one
 * transaction. {@link #process} is {@code GET /v1/analytics/{domain}/assistant/topics}: each category and topic of
 * the period with its questions, share, unanswered share and answer ratings.
 */
public class Topics implements Processor {

    private static final Logger LOG = LoggerFactory.getLogger(Topics.class);
    /** The most asked questions a topic lists. */
    static final int EXAMPLES = 5;
    private static final int MAX_LABEL = 500;

    private final Records records;
    private final Analytics analytics;
    private final boolean enabled;
    private final int batch;
    private final double topicSimilarity;
    private final double categorySimilarity;
    private final int maxTopics;

    /**
     * @param batch              questions embedded a run at most (each ~3 ms of one core)
     * @param topicSimilarity    the least cosine to a topic's centroid for a question to join it
     * @param categorySimilarity the least cosine to a category's centroid for a new topic to join it
     * @param maxTopics          topics a domain has at most
     */
    public Topics(Records records, Analytics analytics, boolean enabled, int batch, double topicSimilarity,
            double categorySimilarity, int maxTopics) {
        this.records = records;
        this.analytics = analytics;
        this.enabled = enabled;
        this.batch = batch;
        this.topicSimilarity = topicSimilarity;
        this.categorySimilarity = categorySimilarity;
        this.maxTopics = maxTopics;
    }

    private record Ungrouped(long id, String organizationId, String domainId, String question) {
    }

    /** One background run: the oldest ungrouped questions, at most {@code batch}, grouped; how many. */
    public int group() {
        if (!enabled) {
            return 0;
        }
        Map<List<String>, List<Ungrouped>> byDomain = new LinkedHashMap<>();
        try (Connection connection = records.connection()) {
            try (PreparedStatement select = connection.prepareStatement("SELECT id, organization_id, domain_id, "
                    + "question FROM turns WHERE topic_id IS NULL ORDER BY id LIMIT ?")) {
                select.setInt(1, batch);
                try (ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        Ungrouped turn = new Ungrouped(rs.getLong(1), rs.getString(2), rs.getString(3),
                                rs.getString(4));
                        byDomain.computeIfAbsent(List.of(turn.organizationId(), turn.domainId()),
                                k -> new ArrayList<>()).add(turn);
                    }
                }
            }
            int grouped = 0;
            for (List<Ungrouped> turns : byDomain.values()) {
                grouped += group(connection, turns);
            }
            return grouped;
        } catch (SQLException e) {
            LOG.warn("Questions could not be grouped into topics; the next run retries: {}", e.getMessage());
            return 0;
        }
    }

    /** One domain's questions added to its topics, in one transaction: all of it, or none when another won a race. */
    private int group(Connection connection, List<Ungrouped> turns) throws SQLException {
        String organizationId = turns.get(0).organizationId();
        String domainId = turns.get(0).domainId();
        TopicModel model = new TopicModel(topicSimilarity, categorySimilarity, maxTopics);
        try (PreparedStatement select = connection.prepareStatement("SELECT id, category_id, label, vector_sum, "
                + "questions FROM topic_groups WHERE organization_id = ? AND domain_id = ?")) {
            Records.bind(select, organizationId, domainId);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    int category = rs.getInt(2);
                    boolean isCategory = rs.wasNull();
                    model.load(rs.getInt(1), isCategory ? null : category, rs.getString(3), rs.getString(4),
                            rs.getLong(5));
                }
            }
        }
        List<Object[]> assigned = new ArrayList<>();
        // A question asked again in the batch is embedded once (the same text, the same vector; assign only reads
        // it): a run of 2,000 of one popular question costs one model run, not 2,000 (~2.5 ms of a core each).
        Map<String, float[]> vectors = new HashMap<>();
        for (Ungrouped turn : turns) {
            String question = turn.question().length() > MAX_LABEL ? turn.question().substring(0, MAX_LABEL)
                    : turn.question();
            TopicModel.Group topic = model.assign(question,
                    vectors.computeIfAbsent(turn.question(), SentenceVectors::of));
            assigned.add(new Object[] {topic.id, model.category(topic).label, turn.id()});
        }
        connection.setAutoCommit(false);
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO topic_groups (organization_id, "
                + "domain_id, id, category_id, label, vector_sum, questions) VALUES (?,?,?,?,?,?,?)");
                PreparedStatement update = connection.prepareStatement("UPDATE topic_groups SET vector_sum = ?, "
                        + "questions = ? WHERE organization_id = ? AND domain_id = ? AND id = ?");
                PreparedStatement turn = connection.prepareStatement("UPDATE turns SET topic_id = ?, "
                        + "query_category = ? WHERE id = ? AND topic_id IS NULL")) {
            for (TopicModel.Group group : model.groups()) {
                if (group.added) {
                    Records.bind(insert, organizationId, domainId, group.id, group.category < 0 ? null
                            : group.category, group.label, TopicModel.encode(group.sum), group.questions);
                    insert.addBatch();
                } else if (group.changed) {
                    Records.bind(update, TopicModel.encode(group.sum), group.questions, organizationId, domainId,
                            group.id);
                    update.addBatch();
                }
            }
            insert.executeBatch();
            update.executeBatch();
            for (Object[] row : assigned) {
                Records.bind(turn, row);
                if (turn.executeUpdate() != 1) {
                    throw new SQLException("turn " + row[2] + " was grouped or erased meanwhile");
                }
            }
            connection.commit();
            return assigned.size();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /** {@code GET /v1/analytics/{domain}/assistant/topics}: the period's categories and topics, most asked first. */
    @Override
    public void process(Exchange exchange) throws SQLException {
        analytics.admit(exchange);
        AnalyticsQuery query = AnalyticsQuery.of(exchange.getMessage(), 1, Integer.MAX_VALUE);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        Object[] range = {tenant.organizationId(), tenant.domainId(), records.time(query.from()),
                records.time(query.to())};
        Map<Integer, Counts> topics = new HashMap<>();
        long[] totals = new long[2];
        try (Connection connection = records.connection()) {
            read(connection, "SELECT topic_id, COUNT(*), SUM(CASE WHEN resolution_status = 'unanswered' THEN 1 "
                    + "ELSE 0 END) FROM turns WHERE organization_id = ? AND domain_id = ? AND asked_at >= ? "
                    + "AND asked_at < ? GROUP BY topic_id", range, rs -> {
                        int id = rs.getInt(1);
                        if (rs.wasNull()) {
                            totals[1] = rs.getLong(2);
                        } else {
                            Counts counts = topics.computeIfAbsent(id, k -> new Counts());
                            counts.questions = rs.getLong(2);
                            counts.unanswered = rs.getLong(3);
                        }
                        totals[0] += rs.getLong(2);
                    });
            read(connection, "SELECT t.topic_id, f.helpful FROM feedback f JOIN turns t ON t.domain_id = f.domain_id "
                    + "AND t.message_id = f.message_id AND t.organization_id = f.organization_id "
                    + "WHERE f.organization_id = ? AND f.domain_id = ? AND t.asked_at >= ? AND t.asked_at < ? "
                    + "AND f.source = 'assistant' AND t.topic_id IS NOT NULL", range, rs -> {
                        Counts counts = topics.computeIfAbsent(rs.getInt(1), k -> new Counts());
                        if (rs.getBoolean(2)) {
                            counts.thumbsUp++;
                        } else {
                            counts.thumbsDown++;
                        }
                    });
            read(connection, "SELECT topic_id, question, COUNT(*) FROM turns WHERE organization_id = ? "
                    + "AND domain_id = ? AND asked_at >= ? AND asked_at < ? AND topic_id IS NOT NULL "
                    + "GROUP BY topic_id, question", range, rs -> topics.computeIfAbsent(rs.getInt(1),
                            k -> new Counts()).example(rs.getString(2), rs.getLong(3)));
            Map<Integer, Map<String, Object>> categories = new LinkedHashMap<>();
            Map<Integer, Counts> categoryCounts = new HashMap<>();
            List<Object[]> groups = new ArrayList<>();
            read(connection, "SELECT id, category_id, label FROM topic_groups WHERE organization_id = ? "
                    + "AND domain_id = ? ORDER BY id", new Object[] {range[0], range[1]}, rs -> {
                        int category = rs.getInt(2);
                        Integer parent = rs.wasNull() ? null : category;
                        groups.add(new Object[] {rs.getInt(1), parent, rs.getString(3)});
                    });
            Map<Integer, List<Map<String, Object>>> topicsOf = new HashMap<>();
            for (Object[] group : groups) {
                Counts counts = topics.get((Integer) group[0]);
                if (group[1] == null) {
                    categories.put((Integer) group[0], null);
                } else if (counts != null && counts.questions > 0) {
                    categoryCounts.computeIfAbsent((Integer) group[1], k -> new Counts()).add(counts);
                    topicsOf.computeIfAbsent((Integer) group[1], k -> new ArrayList<>())
                            .add(counts.json((Integer) group[0], (String) group[2], totals[0]));
                }
            }
            List<Map<String, Object>> listed = new ArrayList<>();
            for (Object[] group : groups) {
                Counts counts = categoryCounts.get((Integer) group[0]);
                if (group[1] == null && counts != null) {
                    Map<String, Object> category = counts.json((Integer) group[0], (String) group[2], totals[0]);
                    List<Map<String, Object>> members = topicsOf.get((Integer) group[0]);
                    members.sort(Comparator.comparingLong(t -> -(long) t.get("questions")));
                    category.put("topics", members);
                    listed.add(category);
                }
            }
            listed.sort(Comparator.comparingLong(c -> -(long) c.get("questions")));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("questions", totals[0]);
            body.put("ungrouped", totals[1]);
            body.put("categories", listed);
            body.put("gaps", gaps(connection, range, groups));
            exchange.getMessage().setBody(body);
        } catch (SQLException e) {
            throw new AnalyticsUnavailableException();
        }
    }

    /**
     * The period's unanswered questions by topic, most unanswered first: each topic's count, its most asked unanswered
     * questions and the page their searches came closest to most often (null when none found a page), where the
     * missing paragraph goes.
     */
    private static List<Map<String, Object>> gaps(Connection connection, Object[] range, List<Object[]> groups)
            throws SQLException {
        String unanswered = " FROM turns WHERE organization_id = ? AND domain_id = ? AND asked_at >= ? "
                + "AND asked_at < ? AND resolution_status = 'unanswered' AND topic_id IS NOT NULL ";
        Map<Integer, Counts> topics = new HashMap<>();
        Map<Integer, Map.Entry<String, Long>> closest = new HashMap<>();
        read(connection, "SELECT topic_id, question, COUNT(*)" + unanswered + "GROUP BY topic_id, question", range,
                rs -> {
                    Counts counts = topics.computeIfAbsent(rs.getInt(1), k -> new Counts());
                    counts.unanswered += rs.getLong(3);
                    counts.example(rs.getString(2), rs.getLong(3));
                });
        Comparator<Map.Entry<String, Long>> most = Map.Entry.<String, Long>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder()));
        read(connection, "SELECT topic_id, closest_page, COUNT(*)" + unanswered + "AND closest_page IS NOT NULL "
                + "GROUP BY topic_id, closest_page", range, rs -> closest.merge(rs.getInt(1),
                        Map.entry(rs.getString(2), rs.getLong(3)), (a, b) -> most.compare(a, b) >= 0 ? a : b));
        List<Map<String, Object>> gaps = new ArrayList<>();
        for (Object[] group : groups) {
            Counts counts = topics.get((Integer) group[0]);
            if (counts != null) {
                Map<String, Object> gap = counts.json((Integer) group[0], (String) group[2], 0);
                gap.keySet().retainAll(List.of("id", "label", "examples"));
                gap.put("unanswered", counts.unanswered);
                Map.Entry<String, Long> page = closest.get((Integer) group[0]);
                gap.put("closestPage", page == null ? null : page.getKey());
                gaps.add(gap);
            }
        }
        gaps.sort(Comparator.comparingLong(g -> -(long) g.get("unanswered")));
        return gaps;
    }

    /** A topic's or category's figures in the period, and its most asked questions (at most {@link #EXAMPLES}). */
    private static final class Counts {
        long questions;
        long unanswered;
        long thumbsUp;
        long thumbsDown;
        final PriorityQueue<Map.Entry<String, Long>> examples = new PriorityQueue<>(
                Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey(
                        Comparator.reverseOrder())));

        void example(String question, long count) {
            examples.add(Map.entry(question, count));
            if (examples.size() > EXAMPLES) {
                examples.poll();
            }
        }

        void add(Counts topic) {
            questions += topic.questions;
            unanswered += topic.unanswered;
            thumbsUp += topic.thumbsUp;
            thumbsDown += topic.thumbsDown;
        }

        Map<String, Object> json(int id, String label, long total) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", id);
            json.put("label", label);
            json.put("questions", questions);
            json.put("share", total == 0 ? 0.0 : (double) questions / total);
            json.put("unansweredShare", questions == 0 ? 0.0 : (double) unanswered / questions);
            json.put("thumbsUp", thumbsUp);
            json.put("thumbsDown", thumbsDown);
            if (!examples.isEmpty()) {
                List<Map.Entry<String, Long>> top = new ArrayList<>(examples);
                top.sort(examples.comparator().reversed());
                json.put("examples", top.stream().map(e -> Map.of("query", e.getKey(), "count", e.getValue()))
                        .toList());
            }
            return json;
        }
    }

    @FunctionalInterface
    private interface RowConsumer {
        void accept(ResultSet rs) throws SQLException;
    }

    private static void read(Connection connection, String sql, Object[] parameters, RowConsumer rows)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            Records.bind(statement, parameters);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    rows.accept(rs);
                }
            }
        }
    }
}
