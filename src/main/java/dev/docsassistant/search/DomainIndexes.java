package dev.docsassistant.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;

import dev.docsassistant.config.DocsSource;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.config.TenantsFile;
import dev.docsassistant.sources.DocsSources;
import dev.docsassistant.sources.Snapshot;
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
 *
 * <p>A domain whose docs live in a Git repository or on a site ({@link DocsSources}) is synced at start, every
 * {@code refresh}, and on demand ({@link #sync}): an unchanged source costs a look at its revision; a changed one is
 * indexed beside the index in use and swapped in whole, so a failed sync (unreachable host, bad credentials, a lost
 * {@code docs.json}) leaves the last good index serving and is reported, never served. Syncs of one domain run one
 * at a time ({@link SyncGate}: a sync asked for meanwhile runs right after, on the same thread); each domain's sync
 * has a thread of its own, so a slow source holds up no other domain, while building indexes (CPU and heap) takes
 * turns, {@link #INDEX_BUILDERS} at once. A sync ends by its deadline ({@code assistant.sources.sync-timeout-seconds})
 * and as soon as its domain leaves the tenants file or names another source. The checks for changed folders and due
 * refreshes run on a thread of their own and only ask for syncs.
 */
public class DomainIndexes implements MeterBinder {

    private static final Logger LOG = LoggerFactory.getLogger(DomainIndexes.class);

    /** How far each domain has got. */
    public enum State { LOADING, READY, FAILED }

    private final Tenants tenants;
    private final long reloadSeconds;
    private final boolean semantic;
    private final Map<String, DomainIndex> ready = new ConcurrentHashMap<>();
    /** Per domain: why its last attempt failed, until one succeeds. */
    private final Map<String, Failure> failures = new ConcurrentHashMap<>();
    private final Map<String, Long> fingerprints = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> embedded = new ConcurrentHashMap<>();
    private final IndexFiles files;
    private final DocsSources sources;
    private final Duration refresh;
    /** Per domain: the source revision indexed, when the next refresh is due, what its syncs did. */
    private final Map<String, String> revisions = new ConcurrentHashMap<>();
    private final Map<String, Long> due = new ConcurrentHashMap<>();
    private final Map<String, SyncRecord> syncs = new ConcurrentHashMap<>();
    /**
     * Per domain: its docs source and site URL as last queued, so an edited tenants file that changes them syncs the
     * domain at once, and one that changes only {@code refresh} reschedules it.
     */
    private final Map<String, TenantsFile.Domain> queued = new ConcurrentHashMap<>();
    /** The registry the per-domain series are bound to, so a domain added by a reload gets its series too. */
    private volatile MeterRegistry meters;
    private final Set<String> bound = ConcurrentHashMap.newKeySet();
    /** Per synced domain: its files as last read, so a sync reads again only the pages that changed. */
    private final Map<String, DocsFolder.Cache> parsed = new ConcurrentHashMap<>();
    /** The first retry of a failed sync, doubled at each failure up to the domain's refresh (or {@link #MAX_RETRY}). */
    static final Duration FIRST_RETRY = Duration.ofSeconds(5);
    static final Duration MAX_RETRY = Duration.ofMinutes(5);
    /** How long stopping waits for the indexer's task in progress (an index being kept) to end. */
    private static final long STOP_WAIT_SECONDS = 10;
    /** Domains whose pages are read and indexed at once: the rest wait their turn, their fetch done. */
    static final int INDEX_BUILDERS = 2;
    private final Semaphore building = new Semaphore(INDEX_BUILDERS);
    private final SyncGate gate = new SyncGate();
    private final PageLimits pageLimits;
    /** Runs the checks (changed folders, due refreshes); {@code indexer} runs the syncs, one thread per domain. */
    private ScheduledExecutorService checks;
    private ExecutorService indexer;
    private volatile boolean stopped;

    /**
     * @param reloadSeconds how often docs folders are checked for changes; 0 never checks
     * @param semantic      whether English pages are also searched by meaning (an embedding model), not only words
     * @param indexDir      where built indexes are kept for the next start ({@link IndexFiles}); blank keeps none
     */
    public DomainIndexes(Tenants tenants, long reloadSeconds, boolean semantic, String indexDir) {
        this(tenants, reloadSeconds, semantic, indexDir, null, 0, PageLimits.DEFAULT);
    }

    /**
     * @param sources        fetches the docs of domains with a Git or site source; null serves folders only
     * @param refreshSeconds how often such a source is synced when its domain names no {@code refresh}; 0 never
     * @param pageLimits     what a page may become with its snippets inlined; a page past them is left out
     */
    public DomainIndexes(Tenants tenants, long reloadSeconds, boolean semantic, String indexDir, DocsSources sources,
            long refreshSeconds, PageLimits pageLimits) {
        this.pageLimits = pageLimits;
        this.tenants = tenants;
        this.files = new IndexFiles(indexDir);
        this.semantic = semantic;
        this.reloadSeconds = reloadSeconds;
        this.sources = sources;
        this.refresh = Duration.ofSeconds(refreshSeconds);
    }

    /** What a domain's syncs did, for its metrics. */
    private static final class SyncRecord {
        volatile long lastSuccessEpochSeconds;
        volatile double lastSeconds;
        volatile int pages;
        volatile int written;
        final AtomicLong failures = new AtomicLong();
        /** Failed attempts since the last good one: the retry's backoff. */
        volatile int failedInARow;
    }

    /**
     * Why a domain's last attempt failed: {@code message} for the operator (health, log), {@code unreachable} (its
     * source could not be reached, not the docs themselves at fault) for the client's problem.
     */
    public record Failure(String message, boolean unreachable) {
    }

    public synchronized void start() {
        if (indexer != null) {
            return;
        }
        // at most one thread per domain (the gate), so a source that hangs until its deadline holds up no other
        indexer = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "docs-indexer");
            thread.setDaemon(true);
            return thread;
        });
        checks = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "docs-checks");
            thread.setDaemon(true);
            return thread;
        });
        for (Tenant tenant : tenants.tenants()) {
            queue(tenant);
        }
        if (reloadSeconds > 0) {
            checks.scheduleWithFixedDelay(this::reloadChanged, reloadSeconds, reloadSeconds, TimeUnit.SECONDS);
        }
        checks.scheduleWithFixedDelay(this::refreshDue, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Stops indexing: a sync in progress stops at its next page ({@code stopped}), while an index being kept on disk
     * after its swap is written whole (interrupted, it would be lost, and the next start would embed every page
     * again); past {@link #STOP_WAIT_SECONDS}, the indexer is interrupted.
     */
    public synchronized void stop() {
        stopped = true;
        if (checks != null) {
            checks.shutdownNow();
        }
        if (indexer != null) {
            indexer.shutdown();
            try {
                if (!indexer.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                    indexer.shutdownNow();
                }
            } catch (InterruptedException e) {
                indexer.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Syncs a domain's source now (its folder, repository or site) and indexes what changed, reporting to
     * {@code update}; asked while a sync of the domain runs, it runs right after that one (never beside it).
     */
    public void sync(String domain, DocsUpdate update) {
        Tenant tenant = tenants.tenant(domain);
        if (tenant != null) {
            queued.put(domain, tenant.domain());
        }
        request(domain, update);
    }

    /** Syncs the domain as the tenants file now has it, without waiting for its refresh. */
    private void queue(Tenant tenant) {
        queued.put(tenant.domainId(), tenant.domain());
        due.remove(tenant.domainId()); // until this sync ends
        request(tenant.domainId(), null);
    }

    /** Runs a sync of the domain on a thread of its own, or has the one running run another after it. */
    private void request(String domain, DocsUpdate update) {
        if (gate.enter(domain, update)) {
            try {
                indexer.execute(() -> runSyncs(domain, update));
            } catch (RejectedExecutionException e) {
                gate.leave(domain); // stopping
            }
        }
    }

    /** Syncs the domain, then each sync asked for meanwhile, until none is; the gate is then open again. */
    private void runSyncs(String domain, DocsUpdate first) {
        List<DocsUpdate> next = Collections.singletonList(first);
        while (next != null) {
            for (DocsUpdate update : next) {
                Tenant tenant = tenants.tenant(domain);
                if (tenant == null) {
                    if (update != null) {
                        update.failed("domain '" + domain + "' is no longer in the tenants file");
                    }
                } else if (!stopped) {
                    load(tenant, update);
                }
            }
            next = gate.leave(domain);
        }
    }

    /** Whether a sync of the domain's {@code source} is still wanted: the service runs, the tenants file has it. */
    private boolean wanted(String domain, DocsSource source) {
        Tenant now = tenants.tenant(domain);
        return !stopped && now != null && now.domain().docs().equals(source);
    }

    private void load(Tenant tenant, DocsUpdate update) {
        String domain = tenant.domainId();
        DocsSource source = tenant.domain().docs();
        SyncRecord record = syncs.computeIfAbsent(domain, d -> new SyncRecord());
        if (update != null) {
            update.started();
        }
        long started = System.nanoTime();
        Long fingerprint = fingerprint(tenant);
        try {
            LOG.info("Indexing domain '{}' from {}", domain, source);
            Snapshot snapshot = null;
            String revision = null;
            long fetched = started;
            if (!source.isFolder()) {
                snapshot = sources.sync(domain, source, ready.containsKey(domain)
                        ? revisions.get(domain) : null, () -> wanted(domain, source));
                if (snapshot == null) {
                    finished(record, started, ready.get(domain).pageCount(), 0);
                    LOG.info("Docs of domain '{}' unchanged at {}", domain, revisions.get(domain));
                    if (update != null) {
                        update.succeeded("unchanged", revisions.get(domain), DocsUpdate.FilesChanged.NONE);
                    }
                    return;
                }
                fetched = System.nanoTime();
                revision = snapshot.revision();
            }
            Docs docs;
            long read;
            DomainIndex previous = ready.get(domain);
            DomainIndex index;
            building.acquire(); // reading and indexing take turns; fetches do not
            try {
                docs = snapshot == null ? DocsFolder.read(source.folder(), pageLimits)
                        : DocsFolder.read(snapshot.folder(), parsed.computeIfAbsent(domain,
                                d -> new DocsFolder.Cache()), pageLimits);
                read = System.nanoTime();
                index = files.index(domain, docs, tenant.domain().siteUrl(), semantic, previous);
            } finally {
                building.release();
            }
            embedded.computeIfAbsent(domain, d -> new AtomicLong()).addAndGet(index.embeddedCount());
            ready.put(domain, index); // the swap: searches from here on use the new index
            long indexed = System.nanoTime();
            files.keep(domain, index, semantic);
            if (revision != null) {
                revisions.put(domain, revision);
            }
            failures.remove(domain);
            record.failedInARow = 0;
            finished(record, started, index.pageCount(), index.writtenPages());
            DocsUpdate.FilesChanged changed = changes(previous, index);
            LOG.info("Indexed domain '{}': {} pages ({} added, {} modified, {} removed; {} written), {} sections, "
                    + "{} languages, {} passages embedded in {} s (fetch {} s, read {} s, index {} s, keep {} s)",
                    domain, index.pageCount(), changed.added().size(), changed.modified().size(),
                    changed.removed().size(), index.writtenPages(), index.sectionCount(), index.languageCount(),
                    index.embeddedCount(), seconds(started, System.nanoTime()), seconds(started, fetched),
                    seconds(fetched, read), seconds(read, indexed), seconds(indexed, System.nanoTime()));
            docs.skipped().forEach(page -> LOG.warn("Domain '{}' left a page out: {}", domain, page));
            if (update != null) {
                update.succeeded(index.pageCount() + " pages, " + index.sectionCount() + " sections, "
                        + index.writtenPages() + " pages written, " + index.embeddedCount()
                        + " passages embedded" + leftOut(docs.skipped()), revision, changed);
            }
        } catch (Exception e) {
            if (stopped) {
                LOG.info("Indexing of domain '{}' stopped: the service is stopping", domain);
                return;
            }
            record.failures.incrementAndGet();
            record.failedInARow++;
            failures.put(domain, new Failure(String.valueOf(e.getMessage()), unreachable(e)));
            LOG.error("Cannot index domain '{}' from {}: {}{}", domain, source, e,
                    ready.containsKey(domain) ? " (still answering from the previous index)" : "");
            if (update != null) {
                update.failed(String.valueOf(e.getMessage()));
            }
        } finally {
            if (fingerprint != null) {
                fingerprints.put(domain, fingerprint); // a failed build is retried when the folder changes again
            }
            if (!source.isFolder()) {
                Duration next = next(source, record.failedInARow);
                if (next.isZero()) {
                    due.remove(domain);
                } else {
                    due.put(domain, System.nanoTime() + next.toNanos());
                }
            }
        }
    }

    /**
     * When a source is synced next: after its refresh (zero: only on demand), or, after failures, sooner: at
     * {@link #FIRST_RETRY} doubled at each failure in a row, never later than its refresh (or {@link #MAX_RETRY}).
     */
    private Duration next(DocsSource source, int failedInARow) {
        Duration refreshing = source.refreshOr(refresh);
        if (failedInARow == 0) {
            return refreshing;
        }
        Duration cap = refreshing.isZero() ? MAX_RETRY : refreshing;
        Duration backoff = FIRST_RETRY.multipliedBy(1L << Math.min(failedInARow - 1, 20));
        return backoff.compareTo(cap) < 0 ? backoff : cap;
    }

    /** Whether a failure is its source's being out of reach (connection, name, time-out), not the docs' fault. */
    private static boolean unreachable(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.net.SocketException || cause instanceof java.net.UnknownHostException
                    || cause instanceof java.net.http.HttpTimeoutException
                    || cause instanceof java.net.SocketTimeoutException
                    || cause instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** The pages left out for a bound, for a status: the first few, each with its reason. */
    private static String leftOut(List<String> skipped) {
        if (skipped.isEmpty()) {
            return "";
        }
        return "; " + skipped.size() + (skipped.size() == 1 ? " page" : " pages") + " left out: "
                + String.join("; ", skipped.subList(0, Math.min(5, skipped.size())))
                + (skipped.size() > 5 ? "; …" : "");
    }

    private static void finished(SyncRecord record, long started, int pages, int written) {
        record.lastSeconds = (System.nanoTime() - started) / 1e9;
        record.lastSuccessEpochSeconds = System.currentTimeMillis() / 1000;
        record.pages = pages;
        record.written = written;
    }

    private static String seconds(long from, long to) {
        return String.format("%.2f", (to - from) / 1e9);
    }

    /** Pages added, modified (any part of them: text, title, placement) and removed between two indexes. */
    private static DocsUpdate.FilesChanged changes(DomainIndex previous, DomainIndex next) {
        Map<String, Page> before = new HashMap<>();
        if (previous != null) {
            previous.pages().forEach(page -> before.put(page.path(), page));
        }
        List<String> added = new ArrayList<>();
        List<String> modified = new ArrayList<>();
        for (Page page : next.pages()) {
            Page old = before.remove(page.path());
            if (old == null) {
                added.add(page.path());
            } else if (!old.equals(page)) {
                modified.add(page.path());
            }
        }
        return new DocsUpdate.FilesChanged(added, modified, before.keySet().stream().sorted().toList());
    }

    /**
     * Every second: syncs at once a domain the tenants file added or whose docs source (or site URL) it changed,
     * reschedules one whose {@code refresh} alone changed, and syncs each Git or site source whose next sync is due
     * (its refresh, or the retry of a failed sync). A domain whose sync runs is looked at again once it has ended.
     */
    private void refreshDue() {
        long now = System.nanoTime();
        for (Tenant tenant : tenants.tenants()) {
            String domain = tenant.domainId();
            DocsSource source = tenant.domain().docs();
            if (gate.busy(domain)) {
                continue;
            }
            SyncRecord record = syncs.get(domain);
            TenantsFile.Domain before = queued.get(domain);
            if (before == null || !sameDocs(before, tenant.domain())) {
                LOG.info("Domain '{}' {} in the tenants file: syncing it now", domain,
                        before == null ? "was added" : "has another docs source");
                bind(domain);
                revisions.remove(domain); // another source: its revisions say nothing of this one
                queue(tenant);
                continue;
            }
            if (!before.docs().refreshOr(refresh).equals(source.refreshOr(refresh))) {
                queued.put(domain, tenant.domain());
                Duration next = next(source, record == null ? 0 : record.failedInARow);
                LOG.info("Domain '{}' refreshes every {} now: next sync in {}", domain,
                        source.refreshOr(refresh), next.isZero() ? "none (on demand)" : next);
                if (next.isZero()) {
                    due.remove(domain);
                } else {
                    due.put(domain, now + next.toNanos());
                }
                continue;
            }
            Long next = due.get(domain);
            if (!source.isFolder() && next != null && now - next >= 0) {
                due.remove(domain); // until this sync ends
                request(domain, null);
            }
        }
    }

    /** Whether two versions of a domain index the same docs the same way (everything but the refresh period). */
    private static boolean sameDocs(TenantsFile.Domain before, TenantsFile.Domain now) {
        DocsSource a = before.docs();
        DocsSource b = now.docs();
        return Objects.equals(before.siteUrl(), now.siteUrl()) && a.equals(new DocsSource(b.folder(), b.git(),
                b.ref(), b.path(), b.credentials(), b.site(), a.refresh(), b.webhookSecret(), b.sshKey(),
                b.knownHosts(), b.gitlabToken()));
    }

    private void reloadChanged() {
        for (Tenant tenant : tenants.tenants()) {
            try {
                Long now = fingerprint(tenant);
                Long indexed = fingerprints.get(tenant.domainId());
                if (gate.busy(tenant.domainId())) {
                    continue; // compared again once its sync has ended
                }
                if (now != null && indexed != null && !now.equals(indexed)) {
                    LOG.info("Docs of domain '{}' changed on disk: indexing them again", tenant.domainId());
                    request(tenant.domainId(), null);
                }
            } catch (RuntimeException e) {
                LOG.warn("Cannot check docs of domain '{}' for changes: {}", tenant.domainId(), e.toString());
            }
        }
    }

    /** A digest of every file's path, size and modification time; null for docs on the classpath or synced. */
    private static Long fingerprint(Tenant tenant) {
        String docs = tenant.domain().docs().folder();
        if (docs == null || docs.startsWith("classpath:")) {
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
            throw new IndexNotReadyException(domain, failures.get(domain), retryAfterSeconds(domain));
        }
        return index;
    }

    /** Seconds until the domain's next sync is due (at least 1), or null when none is scheduled. */
    private Long retryAfterSeconds(String domain) {
        Long next = due.get(domain);
        return next == null ? null : Math.max(1, TimeUnit.NANOSECONDS.toSeconds(next - System.nanoTime()) + 1);
    }

    /** Passages of the domain embedded since the start: none when every index was opened from its file. */
    public long embeddedPassages(String domain) {
        AtomicLong count = embedded.get(domain);
        return count == null ? 0 : count.get();
    }

    public State state(String domain) {
        return ready.containsKey(domain) ? State.READY : failures.containsKey(domain) ? State.FAILED : State.LOADING;
    }

    /** Why the domain's last attempt failed (it may still serve its previous index), or null if it did not. */
    public Failure failure(String domain) {
        return failures.get(domain);
    }

    public Tenants tenants() {
        return tenants;
    }

    /**
     * Each domain's state, index size and syncs, and the passages embedded for it, and the tenants file's reloads, as
     * the service's metrics: every series from the start (a domain added by a reload, from then), at 0 until its
     * first event.
     */
    @Override
    public void bindTo(MeterRegistry meters) {
        this.meters = meters;
        FunctionCounter.builder("assistant.tenants.reload.failures", tenants, Tenants::reloadFailures)
                .description("Reloads of the tenants file that failed (unreadable or invalid; the previous one serves)")
                .register(meters);
        Gauge.builder("assistant.tenants.file.invalid", tenants, t -> t.invalid() ? 1 : 0)
                .description("1 while the tenants file on disk cannot be put in force (the previous one serves)")
                .register(meters);
        for (Tenant tenant : tenants.tenants()) {
            bind(tenant.domainId());
        }
    }

    private void bind(String domain) {
        MeterRegistry meters = this.meters;
        if (meters == null || !bound.add(domain)) {
            return;
        }
        Gauge.builder("assistant.docs.available", () -> state(domain) == State.READY ? 1 : 0)
                .description("1 while the domain answers from an index, 0 while it has none (loading, or never "
                        + "indexed: its requests are answered 503)").tag("domain", domain).register(meters);
        Gauge.builder("assistant.index.pages", () -> size(domain, DomainIndex::pageCount))
                .description("Pages in the domain's index").tag("domain", domain).register(meters);
        Gauge.builder("assistant.index.sections", () -> size(domain, DomainIndex::sectionCount))
                .description("Sections (documents) in the domain's index").tag("domain", domain).register(meters);
        FunctionCounter.builder("assistant.search.embedded.passages", this, i -> i.embeddedPassages(domain))
                .description("Passages embedded for search by meaning since the start (none if the index was "
                        + "opened from its file)").tag("domain", domain).register(meters);
        SyncRecord record = syncs.computeIfAbsent(domain, d -> new SyncRecord());
        Gauge.builder("assistant.docs.sync.last.success", record, r -> r.lastSuccessEpochSeconds)
                .description("When the domain's docs were last synced and indexed (Unix seconds; 0 not yet)")
                .baseUnit("seconds").tag("domain", domain).register(meters);
        Gauge.builder("assistant.docs.sync.duration", record, r -> r.lastSeconds)
                .description("How long the domain's last good sync took").baseUnit("seconds")
                .tag("domain", domain).register(meters);
        Gauge.builder("assistant.docs.sync.pages", record, r -> r.pages)
                .description("Pages the domain's last good sync indexed").tag("domain", domain).register(meters);
        Gauge.builder("assistant.docs.sync.pages.written", record, r -> r.written)
                .description("Pages whose search documents the domain's last good sync wrote: the changed and "
                        + "added ones (every page at the first)").tag("domain", domain).register(meters);
        FunctionCounter.builder("assistant.docs.sync.failures", record, r -> r.failures.get())
                .description("Syncs of the domain's docs that failed (the previous index kept serving)")
                .tag("domain", domain).register(meters);
    }

    private double size(String domain, ToIntFunction<DomainIndex> count) {
        return state(domain) == State.READY ? count.applyAsInt(index(domain)) : 0;
    }
}
