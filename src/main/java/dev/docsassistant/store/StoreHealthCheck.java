package dev.docsassistant.store;

import java.util.Map;

import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * UP when the store can be used: always for the memory store, when Redis answers a PING (within the command
 * timeout) for the Redis store. A readiness check: an unreachable Redis is no reason to restart the process.
 */
public class StoreHealthCheck extends AbstractHealthCheck {

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
        builder.detail("fallbacks", store.outage().fallbacks());
        builder.detail("refusals", store.outage().refusals());
        if (redis == null) {
            builder.up();
            return;
        }
        try {
            redis.ping();
            builder.up();
        } catch (RuntimeException e) {
            builder.error(e).down();
        }
    }
}
