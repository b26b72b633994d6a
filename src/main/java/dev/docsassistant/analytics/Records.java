package dev.docsassistant.analytics;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;

/**
 * The store of record: the database the turns, feedback and searches are written to, and read from by the analytics
 * endpoints. An embedded H2 file in the data folder unless a JDBC URL names another (PostgreSQL, shared by replicas).
 * The pool is made without a connection and the schema migrated on first use, so a database that is down at start-up
 * delays nothing: the service answers, writes are retried ({@link RecordWriter}), analytics answer 503.
 */
public class Records implements AutoCloseable {

    /** What the writer queues: each row names its organization and domain, and its reader (null for none). */
    public sealed interface Row permits Turn, Feedback, Search, RecordAnswer.Answered {
        String organizationId();

        String domainId();

        String fp();
    }

    /** A user turn as the reader got it. */
    public record Turn(String organizationId, String domainId, String threadId, String messageId, String fp,
            Instant askedAt, Instant answeredAt, String question, String answer, String responseType, String sources,
            String resolutionStatus, String callerType, String queryCategory, String pageUrl) implements Row {
    }

    /** A rating or feedback: {@code source} contextual, code_snippet or assistant (an answer's rating). */
    public record Feedback(String organizationId, String domainId, String fp, String source, String path,
            Boolean helpful, String contact, String comment, String code, String filename, String lang,
            String threadId, String messageId, Instant createdAt) implements Row {
    }

    /** A search a reader made. */
    public record Search(String organizationId, String domainId, String query, Instant searchedAt) implements Row {

        /** A search names no reader. */
        @Override
        public String fp() {
            return null;
        }
    }

    private final HikariConfig config = new HikariConfig();
    /** Made on first use: Camel creates YAML beans twice at start-up, and an unused pool holds no thread. */
    private HikariDataSource pool;
    private volatile boolean migrated;

    /**
     * @param jdbcUrl  the database; empty for the embedded one in {@code dataDir}
     * @param poolSize the most connections held (the writer takes one, the analytics readers the rest)
     */
    public Records(String jdbcUrl, String username, String password, String dataDir, int poolSize,
            long connectTimeoutMs) {
        config.setPoolName("records");
        config.setJdbcUrl(jdbcUrl == null || jdbcUrl.isBlank() ? embedded(dataDir) : jdbcUrl);
        if (username != null && !username.isBlank()) {
            config.setUsername(username);
        }
        if (password != null && !password.isBlank()) {
            config.setPassword(password);
        }
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(Math.max(250, connectTimeoutMs));
        config.setValidationTimeout(Math.max(250, Math.min(connectTimeoutMs, 5_000)));
        config.setInitializationFailTimeout(-1); // a pool without the database; it connects when asked
    }

    /** The embedded database: an H2 file in the data folder, in its PostgreSQL mode (one SQL text for both). */
    static String embedded(String dataDir) {
        Path file = Path.of(dataDir == null || dataDir.isBlank() ? "data" : dataDir).toAbsolutePath()
                .resolve("records");
        return "jdbc:h2:file:" + file + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";
    }

    /** A connection to a migrated database; throws when the database cannot be reached. */
    public Connection connection() throws SQLException {
        if (!migrated) {
            migrate();
        }
        return pool.getConnection();
    }

    private synchronized void migrate() throws SQLException {
        if (migrated) {
            return;
        }
        if (pool == null) {
            pool = new HikariDataSource(config);
        }
        try {
            Flyway.configure().dataSource(pool).locations("classpath:db/analytics").load().migrate();
        } catch (RuntimeException e) {
            throw new SQLException("The records database could not be migrated: " + e.getMessage(), e);
        }
        migrated = true;
    }

    /** Writes a batch in one transaction: all of it or, on failure, none (the writer retries it whole). */
    void write(List<Row> batch) throws SQLException {
        try (Connection connection = connection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement turns = connection.prepareStatement("INSERT INTO turns (organization_id, "
                    + "domain_id, thread_id, message_id, fp, asked_at, answered_at, question, answer, response_type, "
                    + "sources, resolution_status, caller_type, query_category, page_url) "
                    + "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
                    PreparedStatement feedback = connection.prepareStatement("INSERT INTO feedback (organization_id, "
                            + "domain_id, fp, source, status, path, helpful, contact, comment, code, filename, lang, "
                            + "thread_id, message_id, created_at) VALUES (?,?,?,?,'pending',?,?,?,?,?,?,?,?,?,?)");
                    PreparedStatement searches = connection.prepareStatement("INSERT INTO searches "
                            + "(organization_id, domain_id, query, searched_at) VALUES (?,?,?,?)")) {
                for (Row row : batch) {
                    if (row instanceof RecordAnswer.Answered answered) {
                        row = answered.turn();
                    }
                    if (row instanceof Turn t) {
                        bind(turns, t.organizationId(), t.domainId(), t.threadId(), t.messageId(), t.fp(),
                                time(t.askedAt()), time(t.answeredAt()), t.question(), t.answer(), t.responseType(),
                                t.sources(), t.resolutionStatus(), t.callerType(), t.queryCategory(), t.pageUrl());
                        turns.addBatch();
                    } else if (row instanceof Feedback f) {
                        bind(feedback, f.organizationId(), f.domainId(), f.fp(), f.source(), f.path(), f.helpful(),
                                f.contact(), f.comment(), f.code(), f.filename(), f.lang(), f.threadId(),
                                f.messageId(), time(f.createdAt()));
                        feedback.addBatch();
                    } else if (row instanceof Search s) {
                        bind(searches, s.organizationId(), s.domainId(), s.query(), time(s.searchedAt()));
                        searches.addBatch();
                    }
                }
                turns.executeBatch();
                feedback.executeBatch();
                searches.executeBatch();
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /** Removes every row of the reader {@code fp} on the domain; the number removed. */
    int erase(String organizationId, String domainId, String fp) throws SQLException {
        int erased = 0;
        try (Connection connection = connection()) {
            for (String table : List.of("turns", "feedback")) { // searches name no reader
                try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table
                        + " WHERE organization_id = ? AND domain_id = ? AND fp = ?")) {
                    bind(delete, organizationId, domainId, fp);
                    erased += delete.executeUpdate();
                }
            }
        }
        return erased;
    }

    /** Removes the organization's rows older than {@code before}; the number removed. */
    int purge(String organizationId, Instant before) throws SQLException {
        int purged = 0;
        try (Connection connection = connection()) {
            for (String[] table : new String[][] {{"turns", "asked_at"}, {"feedback", "created_at"},
                    {"searches", "searched_at"}}) {
                try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table[0]
                        + " WHERE organization_id = ? AND " + table[1] + " < ?")) {
                    bind(delete, organizationId, time(before));
                    purged += delete.executeUpdate();
                }
            }
        }
        return purged;
    }

    static OffsetDateTime time(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    static void bind(PreparedStatement statement, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                statement.setNull(i + 1, Types.NULL);
            } else {
                statement.setObject(i + 1, values[i]);
            }
        }
    }

    @Override
    public synchronized void close() {
        if (pool != null) {
            pool.close();
        }
    }
}
