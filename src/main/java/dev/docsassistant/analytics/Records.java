package dev.docsassistant.analytics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store of record: the database the turns, feedback and searches are written to, and read from by the analytics
 * endpoints. An embedded SQLite file in the data folder unless a JDBC URL names another (PostgreSQL, shared by
 * replicas). One SQL text serves both; where they differ (the identity column, how a time is kept) this class says.
 * The start checks the store ({@link #check}): one that cannot be reached or written stops it. A database that goes
 * down later stops nothing: the service answers, writes are retried ({@link RecordWriter}), analytics answer 503.
 */
public class Records implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Records.class);

    /** What the writer queues: each row names its organization and domain, and its reader (null for none). */
    public sealed interface Row permits Turn, Feedback, Search, View, RecordAnswer.Answered {
        String organizationId();

        String domainId();

        String fp();
    }

    /** A user turn as the reader got it; closestPage the search's top hit, null when it found none. */
    public record Turn(String organizationId, String domainId, String threadId, String messageId, String fp,
            Instant askedAt, Instant answeredAt, String question, String answer, String responseType, String sources,
            String resolutionStatus, String callerType, String queryCategory, String pageUrl, String closestPage)
            implements Row {

        /** A turn whose search's top hit is not known. */
        public Turn(String organizationId, String domainId, String threadId, String messageId, String fp,
                Instant askedAt, Instant answeredAt, String question, String answer, String responseType,
                String sources, String resolutionStatus, String callerType, String queryCategory, String pageUrl) {
            this(organizationId, domainId, threadId, messageId, fp, askedAt, answeredAt, question, answer,
                    responseType, sources, resolutionStatus, callerType, queryCategory, pageUrl, null);
        }
    }

    /** A rating or feedback: {@code source} contextual, code_snippet or assistant (an answer's rating). */
    public record Feedback(String organizationId, String domainId, String fp, String source, String path,
            Boolean helpful, String contact, String comment, String code, String filename, String lang,
            String threadId, String messageId, Instant createdAt) implements Row {
    }

    /**
     * A search a visitor made (a hash of its address, as a {@link View}'s), the paths it returned each between
     * newlines, and until when a view of one counts as its click.
     */
    public record Search(String organizationId, String domainId, String query, Instant searchedAt, String visitor,
            String results, Instant clickUntil) implements Row {

        /** A search of no known visitor or results (an import, a test): no view is its click. */
        public Search(String organizationId, String domainId, String query, Instant searchedAt) {
            this(organizationId, domainId, query, searchedAt, null, null, searchedAt);
        }

        /** A search names no reader. */
        @Override
        public String fp() {
            return null;
        }
    }

    /** A page served to a visitor (a hash of its address), {@code traffic} human or ai. */
    public record View(String organizationId, String domainId, String path, String visitor, String traffic,
            Instant viewedAt) implements Row {

        /** A view names no reader: its visitor is a hash of an address. */
        @Override
        public String fp() {
            return null;
        }
    }

    /** Times as SQLite keeps them: text, UTC, fixed width to the microsecond, so that text order is time order. */
    private static final DateTimeFormatter SQLITE_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final HikariConfig config = new HikariConfig();
    private final boolean sqlite;
    private final Path embeddedDir;
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
        boolean embedded = jdbcUrl == null || jdbcUrl.isBlank();
        embeddedDir = embedded ? Path.of(dataDir == null || dataDir.isBlank() ? "data" : dataDir).toAbsolutePath()
                : null;
        config.setJdbcUrl(embedded ? embedded(embeddedDir) : jdbcUrl);
        sqlite = config.getJdbcUrl().startsWith("jdbc:sqlite:");
        if (config.getJdbcUrl().startsWith("jdbc:postgresql:")) {
            config.addDataSourceProperty("reWriteBatchedInserts", "true"); // a batch as multi-row INSERTs
        }
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

    /**
     * The embedded database: a SQLite file in the data folder, its journal a write-ahead log (the analytics readers
     * read while the writer writes), synced at checkpoints rather than at each commit (a crash of the machine may
     * lose the last commits, never corrupt the file), waiting up to 5 s for the writer's lock. Deleted content is
     * overwritten with zeros (secure_delete): an erased reader's text does not stay readable in the file.
     */
    static String embedded(Path dataDir) {
        return "jdbc:sqlite:" + dataDir.resolve("records.db") + "?journal_mode=WAL&synchronous=NORMAL"
                + "&busy_timeout=5000&secure_delete=true";
    }

    /**
     * Fails unless the store can be written: the embedded database's folder made and written (a read-only file
     * system there, a container's root, would otherwise lose every record quietly), or the database reached,
     * migrated and a row written in a transaction rolled back.
     */
    void check() {
        if (embeddedDir == null) {
            checkDatabase();
            return;
        }
        try {
            Files.createDirectories(embeddedDir);
            Files.delete(Files.createTempFile(embeddedDir, ".write-check", ""));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("The store of record cannot be written in " + embeddedDir
                    + " (assistant.records.data-dir): " + e + ". Give it a writable volume there, a database "
                    + "(assistant.records.jdbc-url), or switch records off (assistant.records.enabled=false)", e);
        }
    }

    private void checkDatabase() {
        try (Connection connection = connection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement probe = connection.prepareStatement("INSERT INTO page_views (organization_id, "
                    + "domain_id, path, visitor, traffic, viewed_at) VALUES (?,?,?,?,?,?)")) {
                bind(probe, "", "", "/", "", "human", time(Instant.now()));
                probe.executeUpdate();
            } finally {
                connection.rollback();
            }
        } catch (SQLException | RuntimeException e) {
            StringBuilder causes = new StringBuilder();
            for (Throwable cause = e; cause != null && causes.length() < 2_000; cause = cause.getCause()) {
                causes.append(causes.isEmpty() ? "" : "; ").append(cause);
            }
            // Not chained: a driver's or Flyway's message may quote the URL, and its password, as given.
            throw new IllegalStateException(redact("The store of record cannot be reached or written at "
                    + config.getJdbcUrl() + " (assistant.records.jdbc-url): " + causes + ". Start the database, "
                    + "correct the URL (or assistant.records.username / password), or switch records off "
                    + "(assistant.records.enabled=false)"));
        }
    }

    /** The text without a password: the configured one, or one in a URL ({@code user:pw@}, {@code password=}). */
    private String redact(String text) {
        String password = config.getPassword();
        if (password != null && !password.isEmpty()) {
            text = text.replace(password, "****");
        }
        return text.replaceAll("(?i)(password=)[^&;\\s)]*", "$1****")
                .replaceAll("(//[^/:@\\s]+:)[^@/\\s]*@", "$1****@");
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
        try {
            if (embeddedDir != null) {
                Files.createDirectories(embeddedDir);
            }
            if (pool == null) {
                pool = new HikariDataSource(config);
            }
            Flyway.configure().dataSource(pool).locations("classpath:db/analytics")
                    .placeholders(Map.of("identity", sqlite ? "INTEGER PRIMARY KEY"
                            : "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"))
                    .load().migrate();
        } catch (IOException | RuntimeException e) {
            throw new SQLException("The records database could not be migrated: " + e.getMessage(), e);
        }
        migrated = true;
    }

    /**
     * A row as the writer queued it: {@code recordId} given once at enqueue, so that every try of its batch writes
     * it at most once.
     */
    record Queued(String recordId, Instant queuedAt, Row row) {
    }

    /**
     * Writes a batch in one transaction: all of it or, on failure, none (the writer retries it whole). A row already
     * stored (its record id: a try the database committed though it answered an error) is left as it is, and a
     * row of a reader erased after it was made (on any instance: {@link #erase}'s tombstone) is not kept. On
     * PostgreSQL the transaction holds the tombstones in SHARE mode, so an erasure waits for the batches in flight
     * and the batches after it see its tombstone. Returns the rows the store holds after the commit: the batch less
     * those of an erased reader (a row stored by an earlier try of the batch is among them; no try before this one
     * succeeded, so none was counted yet).
     */
    List<Queued> write(List<Queued> batch) throws SQLException {
        try (Connection connection = connection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement turns = connection.prepareStatement("INSERT INTO turns (organization_id, "
                    + "domain_id, thread_id, message_id, fp, asked_at, answered_at, question, answer, response_type, "
                    + "sources, resolution_status, caller_type, query_category, page_url, closest_page, record_id) "
                    + "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING");
                    PreparedStatement feedback = connection.prepareStatement("INSERT INTO feedback (organization_id, "
                            + "domain_id, fp, source, status, path, helpful, contact, comment, code, filename, lang, "
                            + "thread_id, message_id, created_at, record_id) "
                            + "VALUES (?,?,?,?,'pending',?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING");
                    PreparedStatement searches = connection.prepareStatement("INSERT INTO searches "
                            + "(organization_id, domain_id, query, searched_at, visitor, results, click_until, "
                            + "record_id) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING");
                    PreparedStatement views = connection.prepareStatement("INSERT INTO page_views "
                            + "(organization_id, domain_id, path, visitor, traffic, viewed_at, record_id) "
                            + "VALUES (?,?,?,?,?,?,?) ON CONFLICT DO NOTHING")) {
                if (!sqlite) {
                    try (Statement lock = connection.createStatement()) {
                        lock.execute("LOCK TABLE erasures IN SHARE MODE");
                    }
                }
                List<String> readersRows = new ArrayList<>();
                for (Queued queued : batch) {
                    Row row = queued.row();
                    String id = queued.recordId();
                    if (row instanceof RecordAnswer.Answered answered) {
                        row = answered.turn();
                    }
                    if (row.fp() != null) {
                        readersRows.add(id);
                    }
                    if (row instanceof Turn t) {
                        bind(turns, t.organizationId(), t.domainId(), t.threadId(), t.messageId(), t.fp(),
                                time(t.askedAt()), time(t.answeredAt()), t.question(), t.answer(), t.responseType(),
                                t.sources(), t.resolutionStatus(), t.callerType(), t.queryCategory(), t.pageUrl(),
                                t.closestPage(), id);
                        turns.addBatch();
                    } else if (row instanceof Feedback f) {
                        bind(feedback, f.organizationId(), f.domainId(), f.fp(), f.source(), f.path(), f.helpful(),
                                f.contact(), f.comment(), f.code(), f.filename(), f.lang(), f.threadId(),
                                f.messageId(), time(f.createdAt()), id);
                        feedback.addBatch();
                    } else if (row instanceof Search s) {
                        bind(searches, s.organizationId(), s.domainId(), s.query(), time(s.searchedAt()), s.visitor(),
                                s.results(), time(s.clickUntil()), id);
                        searches.addBatch();
                    } else if (row instanceof View v) {
                        bind(views, v.organizationId(), v.domainId(), v.path(), v.visitor(), v.traffic(),
                                time(v.viewedAt()), id);
                        views.addBatch();
                    }
                }
                turns.executeBatch();
                feedback.executeBatch();
                searches.executeBatch();
                views.executeBatch();
                Set<String> erased = readersRows.isEmpty() ? Set.of() : removeErased(connection, readersRows);
                connection.commit();
                return erased.isEmpty() ? List.copyOf(batch)
                        : batch.stream().filter(queued -> !erased.contains(queued.recordId())).toList();
            } catch (SQLException | RuntimeException e) {
                undo(connection, e);
                throw e;
            }
        }
    }

    /**
     * Rolls back the failed transaction and retires its connection: SQLite ends a transaction itself on some errors
     * (a full disk: its rollback then fails), and a connection left so would run the next batch's inserts each in a
     * transaction of its own, half a batch committed before the next error. The rollback's error is added to it.
     */
    private void undo(Connection connection, Exception error) {
        try {
            connection.rollback();
        } catch (SQLException | RuntimeException e) {
            error.addSuppressed(e);
        }
        pool.evictConnection(connection);
    }

    /** Deletes, of the rows just inserted, those of a reader erased after the row was made; their record ids. */
    private static Set<String> removeErased(Connection connection, List<String> recordIds) throws SQLException {
        String ids = String.join(",", Collections.nCopies(recordIds.size(), "?"));
        int removed = 0;
        for (String[] table : new String[][] {{"turns", "asked_at"}, {"feedback", "created_at"}}) {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table[0]
                    + " WHERE record_id IN (" + ids + ") AND EXISTS (SELECT 1 FROM erasures e WHERE "
                    + "e.organization_id = " + table[0] + ".organization_id AND e.domain_id = " + table[0]
                    + ".domain_id AND e.fp = " + table[0] + ".fp AND e.erased_at >= " + table[0] + "." + table[1]
                    + ")")) {
                bind(delete, recordIds.toArray());
                removed += delete.executeUpdate();
            }
        }
        if (removed == 0) {
            return Set.of();
        }
        Set<String> erased = new HashSet<>(recordIds);
        erased.removeAll(stored(connection, recordIds));
        return erased;
    }

    /** Of the record ids, those stored (in any table): after a batch's last failed try, what was written all the same. */
    Set<String> stored(List<String> recordIds) throws SQLException {
        try (Connection connection = connection()) {
            return stored(connection, recordIds);
        }
    }

    private static Set<String> stored(Connection connection, List<String> recordIds) throws SQLException {
        String ids = String.join(",", Collections.nCopies(recordIds.size(), "?"));
        Set<String> stored = new HashSet<>();
        for (String table : List.of("turns", "feedback", "searches", "page_views")) {
            try (PreparedStatement select = connection.prepareStatement("SELECT record_id FROM " + table
                    + " WHERE record_id IN (" + ids + ")")) {
                bind(select, recordIds.toArray());
                try (ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        stored.add(rs.getString(1));
                    }
                }
            }
        }
        return stored;
    }

    /**
     * Removes every row of the reader {@code fp} on the domain and records the erasure (its tombstone, {@code at}),
     * in one transaction; the number of rows removed. Tombstones of the organization older than {@code keepFrom}
     * are deleted first; past {@code maxErasures} live ones the erasure is refused (nothing done), as a tombstone
     * that could not be kept would let a late row back.
     */
    int erase(String organizationId, String domainId, String fp, Instant at, Instant keepFrom, int maxErasures)
            throws SQLException {
        int erased = 0;
        try (Connection connection = connection()) {
            connection.setAutoCommit(false);
            try {
                try (PreparedStatement expired = connection.prepareStatement("DELETE FROM erasures "
                        + "WHERE organization_id = ? AND erased_at < ?")) {
                    bind(expired, organizationId, time(keepFrom));
                    expired.executeUpdate();
                }
                try (PreparedStatement live = connection.prepareStatement("SELECT COUNT(*), SUM(CASE WHEN "
                        + "domain_id = ? AND fp = ? THEN 1 ELSE 0 END) FROM erasures WHERE organization_id = ?")) {
                    bind(live, domainId, fp, organizationId);
                    try (ResultSet rs = live.executeQuery()) {
                        rs.next();
                        if (rs.getLong(1) >= maxErasures && rs.getLong(2) == 0) {
                            throw new SQLException("organization '" + organizationId + "' has " + rs.getLong(1)
                                    + " erasures held (assistant.records.max-erasures)");
                        }
                    }
                }
                try (PreparedStatement tombstone = connection.prepareStatement("INSERT INTO erasures "
                        + "(organization_id, domain_id, fp, erased_at) VALUES (?,?,?,?) ON CONFLICT "
                        + "(organization_id, domain_id, fp) DO UPDATE SET erased_at = excluded.erased_at")) {
                    bind(tombstone, organizationId, domainId, fp, time(at));
                    tombstone.executeUpdate();
                }
                for (String table : List.of("turns", "feedback")) { // searches name no reader
                    try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table
                            + " WHERE organization_id = ? AND domain_id = ? AND fp = ?")) {
                        bind(delete, organizationId, domainId, fp);
                        erased += delete.executeUpdate();
                    }
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                undo(connection, e);
                throw e;
            }
        }
        return erased;
    }

    /** A reader's erasure, as its tombstone keeps it. */
    record Erasure(String organizationId, String domainId, String fp, Instant erasedAt) {

        /** Whether the row is this reader's and made no later than the erasure: what the tombstone keeps out. */
        boolean covers(Row row) {
            Instant made = row instanceof Turn turn ? turn.askedAt()
                    : row instanceof Feedback feedback ? feedback.createdAt()
                    : row instanceof RecordAnswer.Answered answered ? answered.turn().askedAt() : null;
            return made != null && !made.isAfter(erasedAt) && organizationId.equals(row.organizationId())
                    && domainId.equals(row.domainId()) && fp.equals(row.fp());
        }
    }

    /** The erasures stamped, on any instance, after {@code since}. */
    List<Erasure> erasedSince(Instant since) throws SQLException {
        List<Erasure> erasures = new ArrayList<>();
        try (Connection connection = connection();
                PreparedStatement select = connection.prepareStatement("SELECT organization_id, domain_id, fp, "
                        + "erased_at FROM erasures WHERE erased_at > ?")) {
            bind(select, time(since));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    erasures.add(new Erasure(rs.getString(1), rs.getString(2), rs.getString(3), instant(rs, 4)));
                }
            }
        }
        return erasures;
    }

    /** True for the embedded SQLite store. */
    boolean embedded() {
        return sqlite;
    }

    /**
     * On PostgreSQL, vacuums and analyzes the tables an erasure deletes from ({@code VACUUM FULL} rewrites them),
     * cancelled past {@code timeoutSeconds}; on SQLite nothing.
     */
    void vacuum(boolean full, int timeoutSeconds) throws SQLException {
        if (sqlite) {
            return;
        }
        try (Connection connection = connection(); Statement vacuum = connection.createStatement()) {
            connection.setAutoCommit(true); // VACUUM runs outside a transaction
            vacuum.setQueryTimeout(timeoutSeconds);
            // ANALYZE too: the planner's statistics (pg_statistic) keep sampled values of the text columns
            vacuum.execute(full ? "VACUUM (FULL, ANALYZE) turns, feedback" : "VACUUM (ANALYZE) turns, feedback");
        }
    }

    /** Removes the organization's rows older than {@code before}; the number removed. */
    int purge(String organizationId, Instant before) throws SQLException {
        int purged = 0;
        try (Connection connection = connection()) {
            for (String[] table : new String[][] {{"turns", "asked_at"}, {"feedback", "created_at"},
                    {"searches", "searched_at"},
                    {"page_views", "viewed_at"}}) {
                try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table[0]
                        + " WHERE organization_id = ? AND " + table[1] + " < ?")) {
                    bind(delete, organizationId, time(before));
                    purged += delete.executeUpdate();
                }
            }
        }
        return purged;
    }

    /** A time as a parameter: PostgreSQL's timestamp with time zone, or SQLite's text ({@link #SQLITE_TIME}). */
    Object time(Instant instant) {
        return sqlite ? SQLITE_TIME.format(instant) : instant.atOffset(ZoneOffset.UTC);
    }

    /** The time in the column, or null. */
    Instant instant(ResultSet rs, int column) throws SQLException {
        if (sqlite) {
            String text = rs.getString(column);
            return text == null ? null : Instant.parse(text);
        }
        OffsetDateTime time = rs.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
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

    /**
     * Closes the pool; SQLite's write-ahead log is first checkpointed into the file and emptied, so no copy of a
     * deleted row's page outlives a clean stop in the log.
     */
    @Override
    public synchronized void close() {
        if (pool == null) {
            return;
        }
        if (sqlite && migrated) {
            try (Connection connection = pool.getConnection(); Statement checkpoint = connection.createStatement()) {
                checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            } catch (SQLException e) {
                LOG.warn("Could not checkpoint the records' write-ahead log at stop: {}", e.toString());
            }
        }
        pool.close();
    }
}
