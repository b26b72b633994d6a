package dev.docsassistant.search;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every domain's index, built in the background at start-up so the HTTP server (and its health endpoint) comes
 * up at once and reports DOWN until each index is in place.
 */
public class DomainIndexes {

    private static final Logger LOG = LoggerFactory.getLogger(DomainIndexes.class);

    /** How far each domain has got. */
    public enum State { LOADING, READY, FAILED }

    private final Tenants tenants;
    private final Map<String, DomainIndex> ready = new ConcurrentHashMap<>();
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    private ExecutorService loader;
    private volatile boolean stopped;

    public DomainIndexes(Tenants tenants) {
        this.tenants = tenants;
    }

    public void start() {
        loader = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "docs-indexer");
            thread.setDaemon(true);
            return thread;
        });
        for (Tenant tenant : tenants.tenants()) {
            loader.execute(() -> load(tenant));
        }
        loader.shutdown();
    }

    public void stop() {
        stopped = true;
        if (loader != null) {
            loader.shutdownNow();
        }
    }

    private void load(Tenant tenant) {
        String domain = tenant.domainId();
        long started = System.nanoTime();
        try {
            DomainIndex index = DomainIndex.build(DocsFolder.read(tenant.domain().docs()), tenant.domain().siteUrl());
            ready.put(domain, index);
            LOG.info("Indexed domain '{}': {} pages, {} sections in {} ms", domain, index.pageCount(),
                    index.sectionCount(), (System.nanoTime() - started) / 1_000_000);
        } catch (Exception e) {
            if (stopped) {
                LOG.info("Indexing of domain '{}' stopped: the service is stopping", domain);
                return;
            }
            failures.put(domain, String.valueOf(e.getMessage()));
            LOG.error("Cannot index domain '{}' from {}: {}", domain, tenant.domain().docs(), e.toString());
        }
    }

    /** The domain's index, or a 503 while it is still being built (or could not be). */
    public DomainIndex index(String domain) {
        DomainIndex index = ready.get(domain);
        if (index == null) {
            throw new IndexNotReadyException(domain, failures.containsKey(domain));
        }
        return index;
    }

    public State state(String domain) {
        return ready.containsKey(domain) ? State.READY : failures.containsKey(domain) ? State.FAILED : State.LOADING;
    }

    public Tenants tenants() {
        return tenants;
    }
}
