package dev.docsassistant.search;

import java.util.Map;

import dev.docsassistant.config.Tenant;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/** UP once every domain's index is loaded: {@code /observe/health} stays 503 until the service can answer. */
public class IndexesHealthCheck extends AbstractHealthCheck {

    private final DomainIndexes indexes;

    public IndexesHealthCheck(DomainIndexes indexes) {
        super("assistant", "docs-indexes");
        this.indexes = indexes;
    }

    @Override
    public boolean isLiveness() {
        return false; // a slow index build is no reason to restart the process
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        boolean up = true;
        for (Tenant tenant : indexes.tenants().tenants()) {
            DomainIndexes.State state = indexes.state(tenant.domainId());
            builder.detail("domain." + tenant.domainId(), state.name());
            up &= state == DomainIndexes.State.READY;
        }
        if (up) {
            builder.up();
        } else {
            builder.down();
        }
    }
}
