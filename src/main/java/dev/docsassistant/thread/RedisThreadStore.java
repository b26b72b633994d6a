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
            """;
    /** KEYS: the hash, the turns; ARGV: the TTL (ms), then the hash's field/value pairs. */
    private static final String SAVE = KEEP + """
            redis.call('HSET', KEYS[1], unpack(ARGV, 2))
            keep(KEYS[1])
            return 1""";
    /** KEYS: the domain's index; ARGV: the TTL (ms), the time (epoch ms), the thread, the time past which none lives. */
    private static final String INDEX = """
            redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[4])
            redis.call('PEXPIRE', KEYS[1], ARGV[1])
            return 1""";
    /** KEYS: the domain's index; ARGV: from, to (epoch ms, inclusive), offset, count. The threads' ids, oldest first. */
    private static final String PAGE = """
            return redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2], 'BYSCORE', 'LIMIT', ARGV[3], ARGV[4])""";
    /** KEYS: the domain's index; ARGV: the thread. */
    private static final String UNINDEX = """
            return redis.call('ZREM', KEYS[1], ARGV[1])""";
    /** KEYS: the hash, the turns. Returns {} or {hash fields and values, turns}, their life unchanged. */
    private static final String PEEK = """
            local meta = redis.call('HGETALL', KEYS[1])
            if #meta == 0 then return {} end
            return {meta, redis.call('LRANGE', KEYS[2], 0, -1)}""";
    /** KEYS: the hash, the turns. */
    private static final String DELETE = """
            return redis.call('DEL', KEYS[1], KEYS[2])""";
    /** KEYS: the hash, the turns; ARGV: the TTL (ms). Returns {} or the hash's fields and values. */
    private static final String OWNER = KEEP + """
            local meta = redis.call('HGETALL', KEYS[1])
            if #meta == 0 then return {} end
            keep(KEYS[1])
            keep(KEYS[2])
            return meta""";
    /** KEYS: the hash, the turns; ARGV: the TTL (ms). Returns {} or {hash fields and values, turns}. */
    private static final String FIND = KEEP + """
            local meta = redis.call('HGETALL', KEYS[1])
            if #meta == 0 then return {} end
            keep(KEYS[1])
            keep(KEYS[2])
            return {meta, redis.call('LRANGE', KEYS[2], 0, -1)}""";
    /**
     * KEYS: the hash, the turns; ARGV: the TTL (ms), the turn, the most turns, the most bytes. A thread that expired
     * gets no orphan turns. The hash's {@code bytes} is the length of the stored turns; the oldest are popped until
     * both caps hold (a turn longer than the byte cap alone is not kept).
     */
    private static final String APPEND = KEEP + """
            if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
            local turns = redis.call('RPUSH', KEYS[2], ARGV[2])
            local bytes = redis.call('HINCRBY', KEYS[1], 'bytes', #ARGV[2])
            while turns > 0 and (turns > tonumber(ARGV[3]) or bytes > tonumber(ARGV[4])) do
                bytes = redis.call('HINCRBY', KEYS[1], 'bytes', -#redis.call('LPOP', KEYS[2]))
                turns = turns - 1
            end
            keep(KEYS[1])
            keep(KEYS[2])
            return 1""";

    /**
     * KEYS: the hash, the turns; ARGV: the TTL (ms), the message id, the feedback (JSON). Sets the feedback of the
     * turn with that message id, keeping the hash's {@code bytes} the length of the stored turns. Returns 1, or 0
     * if the thread has no such turn. The turn's JSON is spliced, not re-encoded (cjson would turn an empty
     * {@code sources} array into an object): {@code feedback} is its last field ({@link StoredTurn}'s order), and
     * {@code ,"feedback":} cannot occur inside a string, whose quotes are escaped.
     */
    private static final String FEEDBACK = KEEP + """
            if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
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
                    return 1
                end
            end
            return 0""";

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
        redis.eval(SAVE, ScriptOutputType.INTEGER, keys(thread.id()), args.toArray(String[]::new));
        index(thread.domainId(), thread.id(), thread.createdAt());
        thread.turns().forEach(turn -> append(thread.id(), turn));
    }

    @Override
    public Optional<ChatThread> find(String threadId) {
        return thread(threadId, redis.eval(FIND, ScriptOutputType.MULTI, keys(threadId), ttlMillis));
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
        Map<String, String> meta = pairs(found);
        return Optional.of(new ChatThread.Owner(meta.get("organizationId"), meta.get("domainId"), meta.get("fp"),
                meta.get("keyHash")));
    }

    @Override
    public void append(String threadId, ChatThread.Turn turn) {
        Long kept = redis.eval(APPEND, ScriptOutputType.INTEGER, keys(threadId), ttlMillis, write(turn), maxTurns,
                maxBytes);
        if (kept == 1) {
            owner(threadId).ifPresent(owner -> index(owner.domainId(), threadId, turn.at()));
        }
    }

    /**
     * The domain's index (a sorted set: thread ids by the time they were last spoken in), on its own key, as a
     * Cluster puts it on another slot than the thread's keys. Ids older than any thread can live are dropped as
     * new ones come; an export drops those of threads that expired sooner.
     */
    private void index(String domainId, String threadId, Instant at) {
        long now = System.currentTimeMillis();
        redis.eval(INDEX, ScriptOutputType.INTEGER, new String[] {indexKey(domainId)}, ttlMillis,
                Long.toString(at.toEpochMilli()), threadId, Long.toString(now - ttl));
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

    @Override
    public int erase(String domainId, String fp) {
        List<String> theirs = new ArrayList<>();
        eachIndexed(domainId, Instant.EPOCH, Instant.ofEpochMilli(Long.MAX_VALUE), thread -> {
            if (fp.equals(thread.fp())) {
                theirs.add(thread.id());
            }
            return true;
        });
        for (String threadId : theirs) {
            redis.eval(DELETE, ScriptOutputType.INTEGER, keys(threadId));
            redis.eval(UNINDEX, ScriptOutputType.INTEGER, new String[] {indexKey(domainId)}, threadId);
        }
        return theirs.size();
    }

    /**
     * Reads the domain's indexed threads in the time range, a page of ids at a time, oldest first, until
     * {@code each} returns false; ids whose thread is gone leave the index.
     */
    private void eachIndexed(String domainId, Instant since, Instant until, Predicate<ChatThread> each) {
        String[] index = {indexKey(domainId)};
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

    private static String indexKey(String domainId) {
        return "threads-by-time:" + domainId;
    }

    @Override
    public boolean feedback(String threadId, String messageId, ChatThread.Feedback feedback) {
        String stored = json(new StoredFeedback(feedback.rating(), feedback.comment(), feedback.at().toEpochMilli()));
        Long rated = redis.eval(FEEDBACK, ScriptOutputType.INTEGER, keys(threadId), ttlMillis, messageId, stored);
        return rated == 1;
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
