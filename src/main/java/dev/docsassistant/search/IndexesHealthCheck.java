package dev.docsassistant.search;

import java.util.Map;

import dev.docsassistant.config.Tenant;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Whether this instance can answer: UP once every domain has had its first attempt (a good index, or a failure) and
 * at least one domain answers from an index. One tenant's broken docs is no reason to withdraw a pod that serves the
 * others (each of its requests is answered 503 {@code docs_unavailable}), and every replica would be withdrawn alike.
 * Waiting for each first attempt keeps a new pod of a rolling update out of the Service while it would still answer
 * {@code index_loading} for domains the old pods serve; once UP, a domain a reload adds does not withdraw it again.
 * The details name each domain's state and its last error ({@code ?exposureLevel=full&data=true}).
 */
public class IndexesHealthCheck extends AbstractHealthCheck {

    private final DomainIndexes indexes;
    /** Whether every domain has had its first attempt once. */
    private volatile boolean started;

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
        int serving = 0;
        int loading = 0;
        int failed = 0;
        for (Tenant tenant : indexes.tenants().tenants()) {
            String domain = tenant.domainId();
            DomainIndexes.State state = indexes.state(domain);
            builder.detail("domain." + domain, state.name());
            DomainIndexes.Failure failure = indexes.failure(domain);
            if (failure != null) { // READY too: a failed sync while the previous index serves
                builder.detail("domain." + domain + ".error", failure.message());
            }
            switch (state) {
                case READY -> serving++;
                case LOADING -> loading++;
                case FAILED -> failed++;
            }
        }
        builder.detail("domains.serving", serving);
        builder.detail("domains.loading", loading);
        builder.detail("domains.failed", failed);
        started |= loading == 0;
        if (started && serving > 0) {
            builder.up();
        } else {
            builder.message(serving == 0 && started ? "no domain can be served" : "domains are still being indexed");
            builder.down();
        }
    }
}
