package dev.docsassistant.thread;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.ground.Json;
import dev.docsassistant.store.Redis;
import io.lettuce.core.ScriptOutputType;

/**
 * Threads shared by every instance and kept across restarts: a hash of the thread's metadata (whose it is, and the
 * bytes its turns take) and a list of its turns, both expiring after the TTL without use. Every operation is one
 * Lua script, so an append lands whole next to the turns another replica appends at the same time, is trimmed to the
 * caps in the same step, and reading a thread refreshes its TTL in the same step. A continuation checks the hash
 * only: the turns stay in Redis.
 * <p>
 * Each domain's index (what export and erasure read) holds every thread whose keys may still exist: whatever
 * extends a thread's life (a turn, a continuation, feedback, an admin read) reports to the index when its keys now
 * expire, and an id leaves the index only once Redis says its thread is gone, never on a guess from the time.
 */
public class RedisThreadStore implements ThreadStore {

    /**
     * Every script's way to extend a key's life: the TTL (ARGV[1]) from now, but never past the thread's retention
     * deadline (its hash's {@code deadline}, epoch ms, if any, read once a script): PEXPIREAT ... LT (Redis 7) only
     * ever shortens.
     */
    private static final String KEEP = """
            local deadline
            local function keep(key)
                redis.call('PEXPIRE', key, ARGV[1])
                if deadline == nil then deadline = redis.call('HGET', KEYS[1], 'deadline') end
                if deadline then redis.call('PEXPIREAT', key, deadline, 'LT') end
            end
            local function kept()
                return {redis.call('HGET', KEYS[1], 'domainId'), redis.call('PTTL', KEYS[1])}
            end
            """;
    /** KEYS: the hash, the turns; ARGV: the TTL (ms), then the hash's field/value pairs. Returns kept(). */
    private static final String SAVE = KEEP + """
            redis.call('HSET', KEYS[1], unpack(ARGV, 2))
            keep(KEYS[1])
            return kept()""";
    /** Redis's clock (epoch ms), one clock for every replica. */
    private static final String NOW = """
            local time = redis.call('TIME')
            local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
            """;
    /**
     * KEYS: the domain's index, its expiries (a thread's keys' expiry, epoch ms); ARGV: the thread, the ms its keys
     * live from now, the time it was last spoken in (epoch ms; empty: unchanged, or now if it is not indexed), the
     * ms both index keys live at least (longer than any thread in them). Returns up to 10 ids whose keys may have
     * expired, for the caller to check.
     */
    private static final String TOUCH = NOW + """
            redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
            if ARGV[3] == '' then
                redis.call('ZADD', KEYS[1], 'NX', now, ARGV[1])
            else
                redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
            end
            for _, key in ipairs(KEYS) do
                if redis.call('PTTL', key) < tonumber(ARGV[4]) then redis.call('PEXPIRE', key, ARGV[4]) end
            end
            return redis.call('ZRANGE', KEYS[2], '-inf', now, 'BYSCORE', 'LIMIT', 0, 10)""";
    /** KEYS: the hash. Its life left (ms), -2 if it is gone. */
    private static final String LIFE = """
            return redis.call('PTTL', KEYS[1])""";
    /**
     * KEYS: the domain's erasures (readers' fp by the time they were last erased); ARGV: the reader, how long an
     * erasure is kept (ms). Returns the time (Redis's, epoch ms).
     */
    private static final String ERASED = NOW + """
            redis.call('ZADD', KEYS[1], now, ARGV[1])
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[2])))
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            return now""";
    /** KEYS: the domain's erasures. Returns {now, {fp, time, fp, time…}}. */
    private static final String ERASURES = NOW + """
            return {now, redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')}""";
    /** KEYS: the domain's index; ARGV: from, to (epoch ms, inclusive), offset, count. The threads' ids, oldest first. */
    private static final String PAGE = """
            return redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2], 'BYSCORE', 'LIMIT', ARGV[3], ARGV[4])""";
    /** KEYS: the domain's index, its expiries; ARGV: the thread. */
    private static final String UNINDEX = """
            redis.call('ZREM', KEYS[2], ARGV[1])
            return redis.call('ZREM', KEYS[1], ARGV[1])""";
    /** KEYS: the hash, the turns. Returns {} or {hash fields and values, turns}, their life unchanged. */
    private static final String PEEK = """
            local meta = redis.call('HGETALL', KEYS[1])
            if #meta == 0 then return {} end
            return {meta, redis.call('LRANGE', KEYS[2], 0, -1)}""";
    /** KEYS: the hash, the turns. */
    private static final String DELETE = """
            return redis.call('DEL', KEYS[1], KEYS[2])""";
    /** KEYS: the hash, the turns; ARGV: the TTL (ms). Returns {} or {hash fields and values, kept()}. */
    private static final String OWNER = KEEP + """
            local meta = redis.call('HGETALL', KEYS[1])
            if #meta == 0 then return {} end
            keep(KEYS[1])
            keep(KEYS[2])
            return {meta, kept()}""";
    /** KEYS: the hash, the turns; ARGV: the TTL (ms). Returns {} or {hash fields and values, turns, kept()}. */
    private static final String FIND = KEEP + """
            local meta = redis.call('HGETALL', KEYS[1])
            if #meta == 0 then return {} end
            keep(KEYS[1])
            keep(KEYS[2])
            return {meta, redis.call('LRANGE', KEYS[2], 0, -1), kept()}""";
    /**
     * KEYS: the hash, the turns; ARGV: the TTL (ms), the turn, the most turns, the most bytes, its message id, its
     * {@code "messageId":…,} ({@link #messageIdField}), {@code ask} for a question. A question is appended and noted
     * in the hash ({@code asked:<id>}); an answer takes the place of its question, looked for from the newest turn
     * back only if one was noted (and is still there: caps may have dropped it), or is appended. A thread that
     * expired gets no orphan turns. The hash's {@code bytes} is the length of the stored turns; the oldest are popped
     * until both caps hold (a turn longer than the byte cap alone is not kept). Returns {} or kept().
     */
    private static final String APPEND = KEEP + """
            if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
            local asked = 'asked:' .. ARGV[5]
            local turns = redis.call('LLEN', KEYS[2])
            local bytes
            local at = 0
            if ARGV[7] == 'ask' then
                redis.call('HSET', KEYS[1], asked, 1)
            elseif redis.call('HDEL', KEYS[1], asked) == 1 then
                at = -1
                while at >= -turns and not string.find(redis.call('LINDEX', KEYS[2], at), ARGV[6], 1, true) do
                    at = at - 1
                end
                if at < -turns then at = 0 end
            end
            if at < 0 then
                local question = redis.call('LINDEX', KEYS[2], at)
                redis.call('LSET', KEYS[2], at, ARGV[2])
                bytes = redis.call('HINCRBY', KEYS[1], 'bytes', #ARGV[2] - #question)
            else
                turns = redis.call('RPUSH', KEYS[2], ARGV[2])
                bytes = redis.call('HINCRBY', KEYS[1], 'bytes', #ARGV[2])
            end
            while turns > 0 and (turns > tonumber(ARGV[3]) or bytes > tonumber(ARGV[4])) do
                bytes = redis.call('HINCRBY', KEYS[1], 'bytes', -#redis.call('LPOP', KEYS[2]))
                turns = turns - 1
            end
            keep(KEYS[1])
            keep(KEYS[2])
            return kept()""";

    /**
     * KEYS: the hash, the turns; ARGV: the TTL (ms), the message id, the feedback (JSON). Sets the feedback of the
     * turn with that message id, keeping the hash's {@code bytes} the length of the stored turns. Returns 1, or 0
     * if the thread has no such turn. The turn's JSON is spliced, not re-encoded (cjson would turn an empty
     * {@code sources} array into an object): {@code feedback} is its last field ({@link StoredTurn}'s order), and
     * {@code ,"feedback":} cannot occur inside a string, whose quotes are escaped. Returns kept(), or {} if the
     * thread has no such turn.
     */
    private static final String FEEDBACK = KEEP + """
            if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
            local turns = redis.call('LRANGE', KEYS[2], 0, -1)
            for i, stored in ipairs(turns) do
                local turn = cjson.decode(stored)
                if turn.messageId == ARGV[2] then
                    local field = string.find(stored, ',"feedback":', 1, true)
                    local updated = string.sub(stored, 1, field) .. '"feedback":' .. ARGV[3] .. '}'
                    redis.call('LSET', KEYS[2], i - 1, updated)
                    redis.call('HINCRBY', KEYS[1], 'bytes', #updated - #stored)
                    keep(KEYS[1])
                    keep(KEYS[2])
                    return kept()
                end
            end
            return {}""";

    /**
     * A turn as stored, {@code feedback} last (the FEEDBACK script relies on it): times as epoch milliseconds (no Java-time module needed). Not private: Blackbird
     * (config/Json) skips private classes, which Jackson constructs and reads by reflection.
     */
    record StoredTurn(long at, String messageId, String question, String answer, List<String> sources,
            boolean complete, boolean answered, StoredFeedback feedback) {

        static StoredTurn of(ChatThread.Turn turn) {
            ChatThread.Feedback feedback = turn.feedback();
            return new StoredTurn(turn.at().toEpochMilli(), turn.messageId(), turn.question(), turn.answer(),
                    turn.sources(), turn.complete(), turn.answered(), feedback == null ? null
                            : new StoredFeedback(feedback.rating(), feedback.comment(), feedback.at().toEpochMilli()));
        }

        ChatThread.Turn turn() {
            return new ChatThread.Turn(Instant.ofEpochMilli(at), messageId, question, answer, sources, complete,
                    answered, feedback == null ? null
                            : new ChatThread.Feedback(feedback.rating(), feedback.comment(),
                                    Instant.ofEpochMilli(feedback.at())));
        }
    }

    record StoredFeedback(String rating, String comment, long at) {
    }

    /** Threads read from the index at a time by an export or an erasure. */
    private static final int PAGE_SIZE = 100;
    /**
     * How much longer than any thread in it a domain's index lives: it is extended after the thread (a second
     * command), so a thread extended while that second command failed still outlives its index by less than this.
     */
    private static final long INDEX_MARGIN = Duration.ofDays(1).toMillis();
    /**
     * How long an erasure is kept for replicas that hold threads of their own (kept during an outage) to erase
     * theirs: longer than an outage lasts.
     */
    private static final long ERASURES_KEPT = Duration.ofDays(7).toMillis();

    private final ObjectMapper json = Json.mapper();
    private final Redis redis;
    private final long ttl;
    private final String ttlMillis;
    private final String maxTurns;
    private final String maxBytes;
    private final Duration retention;

    /**
     * @param maxTurns  a thread keeps its newest turns, at most this many
     * @param maxBytes  taking at most this many bytes of stored JSON (UTF-8) together
     * @param retention how long after its start a thread is deleted, however much used; zero for no bound
     */
    public RedisThreadStore(Redis redis, long ttlMinutes, int maxTurns, long maxBytes, Duration retention) {
        this.redis = redis;
        this.ttl = Duration.ofMinutes(ttlMinutes).toMillis();
        this.ttlMillis = Long.toString(ttl);
        this.maxTurns = Integer.toString(maxTurns);
        this.maxBytes = Long.toString(maxBytes);
        this.retention = retention;
    }

    public RedisThreadStore(Redis redis, long ttlMinutes, int maxTurns, long maxBytes) {
        this(redis, ttlMinutes, maxTurns, maxBytes, Duration.ZERO);
    }

    @Override
    public void save(ChatThread thread) {
        List<String> args = new ArrayList<>(List.of(ttlMillis,
                "organizationId", thread.organizationId(), "domainId", thread.domainId(),
                "keyHash", thread.keyHash(), "createdAt", Long.toString(thread.createdAt().toEpochMilli())));
        if (thread.fp() != null) {
            args.addAll(List.of("fp", thread.fp()));
        }
        if (!retention.isZero()) {
            args.addAll(List.of("deadline", Long.toString(thread.createdAt().plus(retention).toEpochMilli())));
        }
        touched(thread.id(), redis.eval(SAVE, ScriptOutputType.MULTI, keys(thread.id()), args.toArray(String[]::new)),
                thread.createdAt());
        thread.turns().forEach(turn -> append(thread.id(), turn));
    }

    @Override
    public Optional<ChatThread> find(String threadId) {
        List<Object> found = redis.eval(FIND, ScriptOutputType.MULTI, keys(threadId), ttlMillis);
        if (!found.isEmpty()) {
            touched(threadId, (List<?>) found.get(2), null);
        }
        return thread(threadId, found);
    }

    private Optional<ChatThread> thread(String threadId, List<Object> found) {
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> meta = pairs((List<?>) found.get(0));
        List<ChatThread.Turn> turns = new ArrayList<>();
        for (Object stored : (List<?>) found.get(1)) {
            turns.add(read((String) stored));
        }
        return Optional.of(new ChatThread(threadId, meta.get("organizationId"), meta.get("domainId"), meta.get("fp"),
                meta.get("keyHash"), Instant.ofEpochMilli(Long.parseLong(meta.get("createdAt"))), List.copyOf(turns)));
    }

    @Override
    public Optional<ChatThread.Owner> owner(String threadId) {
        List<Object> found = redis.eval(OWNER, ScriptOutputType.MULTI, keys(threadId), ttlMillis);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        touched(threadId, (List<?>) found.get(1), null);
        Map<String, String> meta = pairs((List<?>) found.get(0));
        return Optional.of(new ChatThread.Owner(meta.get("organizationId"), meta.get("domainId"), meta.get("fp"),
                meta.get("keyHash")));
    }

    @Override
    public void append(String threadId, ChatThread.Turn turn) {
        keep(threadId, turn, "answer");
    }

    @Override
    public void ask(String threadId, ChatThread.Turn question) {
        keep(threadId, question, "ask");
    }

    private void keep(String threadId, ChatThread.Turn turn, String as) {
        List<Object> kept = redis.eval(APPEND, ScriptOutputType.MULTI, keys(threadId), ttlMillis, write(turn),
                maxTurns, maxBytes, turn.messageId(), messageIdField(turn.messageId()), as);
        if (!kept.isEmpty()) {
            touched(threadId, kept, turn.at());
        }
    }

    /**
     * Tells the domain's index that the thread's keys now expire {@code kept}'s PTTL from now (and, unless null,
     * that it was spoken in at {@code spokenAt}); then checks the threads whose keys may have expired since, which
     * leave the index only if Redis no longer has them. The index (a sorted set: thread ids by the time they were
     * last spoken in, and beside it their expiries) is on its own keys, as a Cluster puts it on another slot than
     * the thread's keys: {@code {threads-by-time:D}:expiry} hashes as {@code threads-by-time:D} does.
     *
     * @param kept the script's kept(): the thread's domain and its hash's PTTL
     */
    private void touched(String threadId, List<?> kept, Instant spokenAt) {
        String domainId = (String) kept.get(0);
        List<Object> mayHaveExpired = index(domainId, threadId, (Long) kept.get(1), spokenAt);
        for (Object id : mayHaveExpired) {
            String expired = (String) id;
            Long life = redis.eval(LIFE, ScriptOutputType.INTEGER, keys(expired));
            if (life == -2) {
                redis.eval(UNINDEX, ScriptOutputType.INTEGER, indexKeys(domainId), expired);
            } else {
                index(domainId, expired, life < 0 ? ttl : life, null);
            }
        }
    }

    private List<Object> index(String domainId, String threadId, long lifeMillis, Instant spokenAt) {
        return redis.eval(TOUCH, ScriptOutputType.MULTI, indexKeys(domainId), threadId, Long.toString(lifeMillis),
                spokenAt == null ? "" : Long.toString(spokenAt.toEpochMilli()), Long.toString(ttl + INDEX_MARGIN));
    }

    @Override
    public void export(String domainId, Instant since, Instant until, String fp, int limit,
            Predicate<ChatThread> each) {
        int[] handed = {0};
        eachIndexed(domainId, since, until, thread -> {
            if (handed[0] >= limit) {
                return false;
            }
            if ((fp == null || fp.equals(thread.fp())) && !thread.lastAt().isBefore(since)
                    && thread.lastAt().isBefore(until)) {
                handed[0]++;
                return each.test(thread);
            }
            return true;
        });
    }

    /**
     * Records the erasure first (replicas holding threads of the reader kept during an outage erase theirs by it,
     * {@link #erasures}), then deletes the reader's threads on Redis.
     */
    @Override
    public int erase(String domainId, String fp) {
        redis.eval(ERASED, ScriptOutputType.INTEGER, new String[] {erasuresKey(domainId)}, fp,
                Long.toString(ERASURES_KEPT));
        List<String> theirs = new ArrayList<>();
        eachIndexed(domainId, Instant.EPOCH, Instant.ofEpochMilli(Long.MAX_VALUE), thread -> {
            if (fp.equals(thread.fp())) {
                theirs.add(thread.id());
            }
            return true;
        });
        for (String threadId : theirs) {
            redis.eval(DELETE, ScriptOutputType.INTEGER, keys(threadId));
            redis.eval(UNINDEX, ScriptOutputType.INTEGER, indexKeys(domainId), threadId);
        }
        return theirs.size();
    }

    /** The domain's recorded erasures: each erased reader's fp and when (on this instance's clock) it was erased. */
    public Map<String, Instant> erasures(String domainId) {
        List<Object> found = redis.eval(ERASURES, ScriptOutputType.MULTI, new String[] {erasuresKey(domainId)});
        long behindRedis = (Long) found.get(0) - System.currentTimeMillis();
        List<?> pairs = (List<?>) found.get(1);
        Map<String, Instant> erased = new HashMap<>();
        for (int i = 0; i + 1 < pairs.size(); i += 2) {
            erased.put((String) pairs.get(i),
                    Instant.ofEpochMilli(Long.parseLong((String) pairs.get(i + 1)) - behindRedis));
        }
        return erased;
    }

    /**
     * Reads the domain's indexed threads in the time range, a page of ids at a time, oldest first, until
     * {@code each} returns false; ids whose thread is gone leave the index.
     */
    private void eachIndexed(String domainId, Instant since, Instant until, Predicate<ChatThread> each) {
        String[] index = indexKeys(domainId);
        String from = Long.toString(since.toEpochMilli());
        String to = Long.toString(until.toEpochMilli() - 1);
        for (int offset = 0; ; offset += PAGE_SIZE) {
            List<Object> ids = redis.eval(PAGE, ScriptOutputType.MULTI, index, from, to, Integer.toString(offset),
                    Integer.toString(PAGE_SIZE));
            for (Object id : ids) {
                String threadId = (String) id;
                Optional<ChatThread> thread = thread(threadId,
                        redis.eval(PEEK, ScriptOutputType.MULTI, keys(threadId)));
                if (thread.isEmpty()) {
                    redis.eval(UNINDEX, ScriptOutputType.INTEGER, index, threadId);
                    offset--;
                } else if (!each.test(thread.get())) {
                    return;
                }
            }
            if (ids.size() < PAGE_SIZE) {
                return;
            }
        }
    }

    private static String[] indexKeys(String domainId) {
        String byTime = "threads-by-time:" + domainId;
        return new String[] {byTime, "{" + byTime + "}:expiry"};
    }

    private static String erasuresKey(String domainId) {
        return "threads-erased:" + domainId;
    }

    @Override
    public boolean feedback(String threadId, String messageId, ChatThread.Feedback feedback) {
        String stored = json(new StoredFeedback(feedback.rating(), feedback.comment(), feedback.at().toEpochMilli()));
        List<Object> kept = redis.eval(FEEDBACK, ScriptOutputType.MULTI, keys(threadId), ttlMillis, messageId,
                stored);
        if (kept.isEmpty()) {
            return false;
        }
        touched(threadId, kept, null);
        return true;
    }

    /** How a stored turn names its message id: {@code "messageId":"…",}, which no string in it can hold unescaped. */
    private String messageIdField(String messageId) {
        return "\"messageId\":" + json(messageId) + ",";
    }

    /** The hash tag puts both keys of a thread on one Cluster slot, as a script touching both needs. */
    private static String[] keys(String threadId) {
        return new String[] {"thread:{" + threadId + "}", "thread:{" + threadId + "}:turns"};
    }

    private static Map<String, String> pairs(List<?> flat) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            map.put((String) flat.get(i), (String) flat.get(i + 1));
        }
        return map;
    }

    private String write(ChatThread.Turn turn) {
        return json(StoredTurn.of(turn));
    }

    private String json(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ChatThread.Turn read(String stored) {
        try {
            return json.readValue(stored, StoredTurn.class).turn();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
