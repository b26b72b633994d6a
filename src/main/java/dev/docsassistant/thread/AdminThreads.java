package dev.docsassistant.thread;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.InvalidRequestException;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.search.Analyzers;
import org.apache.camel.Processor;
import org.apache.lucene.analysis.Analyzer;

/**
 * The docs team's view of the threads (admin-threads.yaml's steps, admin keys only): one thread, a reader's
 * erasure, and the gaps, the questions the docs did not answer ({@link Gaps}) grouped by wording: two questions are
 * one gap when their terms (the English analyzer's: lower-cased, stemmed, stop words out) overlap by
 * {@value #SIMILAR} or more (Jaccard), so "How do I rotate keys?" and "rotating the keys" count together.
 */
public class AdminThreads {

    static final double SIMILAR = 0.5;
    /** Gaps kept while reading: past it, a question unlike every kept one is counted in {@code others}. */
    static final int MAX_GAPS = 1_000;
    static final int EXAMPLES = 3;
    private static final int MAX_TERMS = 64;

    private final ThreadStore threads;
    private final int maxThreads;
    private final Analyzer analyzer = Analyzers.forLanguage("en");

    /** @param maxThreads the most threads one listing reads (the gaps of a period, an export page) */
    public AdminThreads(ThreadStore threads, int maxThreads) {
        this.threads = threads;
        this.maxThreads = maxThreads;
    }

    /** {@code GET /v1/admin/{domain}/threads/{threadId}}: the thread, if it is this domain's; 404 otherwise. */
    public static Processor thread(AdminThreads admin) {
        return exchange -> {
            Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
            String threadId = exchange.getMessage().getHeader("threadId", String.class);
            ChatThread thread = threadId == null || threadId.length() > 200 ? null
                    : admin.threads.find(threadId).filter(t -> owns(tenant, t)).orElse(null);
            if (thread == null) {
                throw new ThreadNotFoundException();
            }
            exchange.getMessage().setBody(ThreadView.of(thread));
        };
    }

    /** {@code DELETE /v1/admin/{domain}/threads?fp=…}: every thread of the reader on the domain, gone. */
    public static Processor erase(AdminThreads admin) {
        return exchange -> {
            Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
            AdminQuery query = AdminQuery.of(exchange, admin.maxThreads, admin.maxThreads);
            if (query.fp() == null) {
                throw new InvalidRequestException("fp", "fp is required: the reader whose threads to erase");
            }
            exchange.getMessage().setBody(Map.of("erased", admin.threads.erase(tenant.domainId(), query.fp())));
        };
    }

    /** {@code GET /v1/admin/{domain}/gaps?since=&until=}: the unanswered questions by wording, most asked first. */
    public static Processor gaps(AdminThreads admin) {
        return exchange -> {
            Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
            AdminQuery query = AdminQuery.of(exchange, admin.maxThreads, admin.maxThreads);
            exchange.getMessage().setBody(admin.gaps(tenant, query));
        };
    }

    static boolean owns(Tenant tenant, ChatThread thread) {
        return thread.organizationId().equals(tenant.organizationId())
                && thread.domainId().equals(tenant.domainId());
    }

    /** One gap: the question first asked, how often such a question went unanswered, a few of its wordings. */
    public record Gap(String question, int count, List<String> examples, String lastAskedAt) {
    }

    public record GapReport(List<Gap> gaps, int others) {
    }

    private static final class Group {
        final Set<String> terms;
        final List<String> examples = new ArrayList<>();
        int count;
        String lastAskedAt;

        Group(Set<String> terms) {
            this.terms = terms;
        }
    }

    GapReport gaps(Tenant tenant, AdminQuery query) {
        List<Group> groups = new ArrayList<>();
        int[] others = {0};
        threads.export(tenant.domainId(), query.since(), query.until(), query.fp(), query.limit(), thread -> {
            if (!owns(tenant, thread)) {
                return true;
            }
            for (ChatThread.Turn turn : thread.turns()) {
                if (turn.answered() || turn.at().isBefore(query.since()) || !turn.at().isBefore(query.until())) {
                    continue;
                }
                Set<String> terms = new HashSet<>(Analyzers.terms(analyzer, turn.question(), MAX_TERMS));
                Group group = groups.stream().filter(g -> jaccard(g.terms, terms) >= SIMILAR).findFirst()
                        .orElse(null);
                if (group == null) {
                    if (groups.size() >= MAX_GAPS) {
                        others[0]++;
                        continue;
                    }
                    group = new Group(terms);
                    groups.add(group);
                }
                group.count++;
                group.lastAskedAt = turn.at().toString();
                if (group.examples.size() < EXAMPLES && !group.examples.contains(turn.question())) {
                    group.examples.add(turn.question());
                }
            }
            return true;
        });
        return new GapReport(groups.stream()
                .sorted(Comparator.comparingInt((Group g) -> g.count).reversed())
                .map(g -> new Gap(g.examples.get(0), g.count, List.copyOf(g.examples), g.lastAskedAt))
                .toList(), others[0]);
    }

    /** Shared terms over all terms; two questions without terms (only stop words) are alike. */
    static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 1;
        }
        Set<String> shared = new HashSet<>(a);
        shared.retainAll(b);
        return (double) shared.size() / (a.size() + b.size() - shared.size());
    }
}
