package dev.docsassistant.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every domain's index, built in the background at start-up so the HTTP server (and its health endpoint) comes
 * up at once and reports DOWN until each index is in place. A docs folder on disk is checked for changes every
 * few seconds; a changed one is indexed again beside the index in use, which is swapped out only when the new
 * one is complete, so requests never see a half-built index (a search holds the index it started with). Built
 * indexes are kept in the index folder ({@link IndexFiles}): a start or reload finds unchanged docs' index there.
 *
 * <p>Changes are found by polling a fingerprint of the folder (paths, sizes, modification times) rather than by
 * file-system events: a Kubernetes ConfigMap or volume update replaces a symlink, which recursive watches miss.
 */
public class DomainIndexes implements MeterBinder {

    private static final Logger LOG = LoggerFactory.getLogger(DomainIndexes.class);

    /** How far each domain has got. */
    public enum State { LOADING, READY, FAILED }

    private final Tenants tenants;
    private final long reloadSeconds;
    private final boolean semantic;
    private final Map<String, DomainIndex> ready = new ConcurrentHashMap<>();
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    private final Map<String, Long> fingerprints = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> embedded = new ConcurrentHashMap<>();
    private final IndexFiles files;
    private ScheduledExecutorService indexer;
    private volatile boolean stopped;

    /**
     * @param reloadSeconds how often docs folders are checked for changes; 0 never checks
     * @param semantic      whether English pages are also searched by meaning (an embedding model), not only words
     * @param indexDir      where built indexes are kept for the next start ({@link IndexFiles}); blank keeps none
     */
    public DomainIndexes(Tenants tenants, long reloadSeconds, boolean semantic, String indexDir) {
        this.tenants = tenants;
        this.files = new IndexFiles(indexDir);
        this.semantic = semantic;
        this.reloadSeconds = reloadSeconds;
    }

    public synchronized void start() {
        if (indexer != null) {
            return;
        }
        indexer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "docs-indexer");
            thread.setDaemon(true);
            return thread;
        });
        for (Tenant tenant : tenants.tenants()) {
            indexer.execute(() -> load(tenant));
        }
        if (reloadSeconds > 0) {
            indexer.scheduleWithFixedDelay(this::reloadChanged, reloadSeconds, reloadSeconds, TimeUnit.SECONDS);
        }
    }

    public synchronized void stop() {
        stopped = true;
        if (indexer != null) {
            indexer.shutdownNow();
        }
    }

    private void load(Tenant tenant) {
        String domain = tenant.domainId();
        long started = System.nanoTime();
        Long fingerprint = fingerprint(tenant);
        try {
            DomainIndex index = files.index(domain, DocsFolder.read(tenant.domain().docs()),
                    tenant.domain().siteUrl(), semantic, ready.get(domain));
            embedded.computeIfAbsent(domain, d -> new AtomicLong()).addAndGet(index.embeddedCount());
            ready.put(domain, index);
            failures.remove(domain);
            LOG.info("Indexed domain '{}': {} pages, {} sections, {} languages, {} passages embedded in {} ms", domain,
                    index.pageCount(), index.sectionCount(), index.languageCount(), index.embeddedCount(),
                    (System.nanoTime() - started) / 1_000_000);
        } catch (Exception e) {
            if (stopped) {
                LOG.info("Indexing of domain '{}' stopped: the service is stopping", domain);
                return;
            }
            failures.put(domain, String.valueOf(e.getMessage()));
            LOG.error("Cannot index domain '{}' from {}: {}{}", domain, tenant.domain().docs(), e,
                    ready.containsKey(domain) ? " (still answering from the previous index)" : "");
        } finally {
            if (fingerprint != null) {
                fingerprints.put(domain, fingerprint); // a failed build is retried when the folder changes again
            }
        }
    }

    private void reloadChanged() {
        for (Tenant tenant : tenants.tenants()) {
            try {
                Long now = fingerprint(tenant);
                Long indexed = fingerprints.get(tenant.domainId());
                if (state(tenant.domainId()) == State.LOADING) {
                    LOG.info("Domain '{}' was added to the tenants file: indexing it", tenant.domainId());
                    load(tenant);
                } else if (now != null && indexed != null && !now.equals(indexed)) {
                    LOG.info("Docs of domain '{}' changed on disk: indexing them again", tenant.domainId());
                    load(tenant);
                }
            } catch (RuntimeException e) {
                LOG.warn("Cannot check docs of domain '{}' for changes: {}", tenant.domainId(), e.toString());
            }
        }
    }

    /** A digest of every file's path, size and modification time; null for docs on the classpath. */
    private static Long fingerprint(Tenant tenant) {
        String docs = tenant.domain().docs();
        if (docs.startsWith("classpath:")) {
            return null;
        }
        Path root = Path.of(docs);
        if (!Files.isDirectory(root)) {
            return 0L;
        }
        try (Stream<Path> files = Files.walk(root)) {
            // a sum, so the order the folder is listed in does not matter
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return 1_000_003L * file.toString().hashCode() + 8_191L * Files.size(file)
                            + Files.getLastModifiedTime(file).toMillis();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0L; // unreadable now: compare again next time
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

    /** Passages of the domain embedded since the start: none when every index was opened from its file. */
    public long embeddedPassages(String domain) {
        AtomicLong count = embedded.get(domain);
        return count == null ? 0 : count.get();
    }

    public State state(String domain) {
        return ready.containsKey(domain) ? State.READY : failures.containsKey(domain) ? State.FAILED : State.LOADING;
    }

    public Tenants tenants() {
        return tenants;
    }

    /** Each domain's index size, and the passages embedded for it, as the service's metrics. */
    @Override
    public void bindTo(MeterRegistry meters) {
        for (Tenant tenant : tenants.tenants()) {
            String domain = tenant.domainId();
            Gauge.builder("assistant.index.pages", () -> size(domain, DomainIndex::pageCount))
                    .description("Pages in the domain's index").tag("domain", domain).register(meters);
            Gauge.builder("assistant.index.sections", () -> size(domain, DomainIndex::sectionCount))
                    .description("Sections (documents) in the domain's index").tag("domain", domain).register(meters);
            FunctionCounter.builder("assistant.search.embedded.passages", this, i -> i.embeddedPassages(domain))
                    .description("Passages embedded for search by meaning since the start (none if the index was "
                            + "opened from its file)").tag("domain", domain).register(meters);
        }
    }

    private double size(String domain, ToIntFunction<DomainIndex> count) {
        return state(domain) == State.READY ? count.applyAsInt(index(domain)) : 0;
    }
}
