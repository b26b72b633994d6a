package dev.docsassistant.store;

import java.util.Map;

import io.lettuce.core.ScriptOutputType;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Whether the store lets this instance answer: always for the memory store; for the Redis store, when Redis takes a
 * write (a small key that expires, within the command timeout), since a Redis that answers PING but refuses writes
 * (out of memory under {@code noeviction}) leaves every replica counting quotas alone. Redis failing, an instance
 * that fails open ({@code assistant.redis.when-unreachable=open}) still answers on its own counters: it stays UP,
 * its {@code state} detail {@code degraded} (every replica shares the Redis: withdrawing them all would empty the
 * Service); one that fails closed refuses what needs Redis, and is DOWN. A readiness check: an unreachable Redis is
 * no reason to restart the process.
 */
public class StoreHealthCheck extends AbstractHealthCheck {

    /** KEYS: the probe's key. */
    private static final String WRITE = """
            return redis.call('SET', KEYS[1], '1', 'PX', 10000)""";

    private final Store store;

    public StoreHealthCheck(Store store) {
        super("assistant", "store");
        this.store = store;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        Redis redis = store.redis();
        builder.detail("store", redis == null ? "memory" : "redis");
        builder.detail("failures", store.outage().failures());
        builder.detail("fallbacks", store.outage().fallbacks());
        builder.detail("refusals", store.outage().refusals());
        if (redis == null) {
            builder.detail("state", "ok").up();
            return;
        }
        try {
            redis.eval(WRITE, ScriptOutputType.STATUS, new String[] {"assistant:ready-probe"});
            builder.detail("state", "ok").up();
        } catch (RuntimeException e) {
            builder.error(e);
            if (store.outage().failsOpen()) {
                builder.detail("state", "degraded").message("Redis fails: answering on this instance's own counters")
                        .up();
            } else {
                builder.detail("state", "down").down();
            }
        }
    }
}
