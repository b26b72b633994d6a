package dev.docsassistant.search;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.docsassistant.auth.UnauthorizedException;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.Secrets;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.sources.WebhookSignature;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Updates of a domain's docs on demand, in Mintlify's trigger shape: {@code POST /v1/project/update/{domain}} (an
 * admin key) or a verified push webhook queues a sync and answers its {@code statusId};
 * {@code GET /v1/project/update-status/{statusId}} reports it. A trigger while one is still queued for the domain
 * answers that one's id (the sync to come will see the newest commit anyway), so a burst of pushes or triggers costs
 * one sync. The most recent {@code kept} updates of each organization are remembered, so the ids a client can make
 * cost bounded memory and one organization's triggers never push another's statuses out.
 */
public final class DocsUpdates {

    private final DomainIndexes indexes;
    private final Tenants tenants;
    private final int kept;
    /** Every remembered update by id; exactly the union of {@link #byOrganization}'s lists. */
    private final Map<String, DocsUpdate> updates = new HashMap<>();
    /** Each organization's remembered updates, oldest first, at most {@link #kept}. */
    private final Map<String, Map<String, DocsUpdate>> byOrganization = new HashMap<>();
    private final Map<String, DocsUpdate> queued = new LinkedHashMap<>();
    /**
     * Per domain, the update each recent verified GitHub delivery answered, by its {@code X-GitHub-Delivery} id and
     * by its signature (GitHub signs the body, not the id), the oldest forgotten past {@link #RECENT_DELIVERIES}.
     */
    private final Map<String, Map<String, DocsUpdate>> deliveries = new HashMap<>();
    /** Deliveries remembered per domain: a replay within the last this many is answered, never synced again. */
    static final int RECENT_DELIVERIES = 1000;

    public DocsUpdates(DomainIndexes indexes, int kept) {
        this.indexes = indexes;
        this.tenants = indexes.tenants();
        this.kept = kept;
    }

    /** Remembers the update in its organization's list, forgetting that organization's oldest beyond {@link #kept}. */
    private void remember(String organization, DocsUpdate update) {
        Map<String, DocsUpdate> own = byOrganization.computeIfAbsent(organization, o -> new LinkedHashMap<>());
        own.put(update.id(), update);
        updates.put(update.id(), update);
        for (var eldest = own.keySet().iterator(); own.size() > kept; ) {
            updates.remove(eldest.next());
            eldest.remove();
        }
    }

    /** Queues a sync of the domain (or joins the one queued) and returns it; {@code source} is what asked. */
    public DocsUpdate trigger(String domain, DocsUpdate.Source source) {
        DocsUpdate update;
        synchronized (this) {
            update = queued.get(domain);
            if (update != null && update.status() == DocsUpdate.Status.queued) {
                return update;
            }
            Tenant tenant = tenants.tenant(domain);
            String ref = tenant != null && tenant.domain().docs().git() != null
                    ? tenant.domain().docs().refOrDefault() : null;
            update = new DocsUpdate(Secrets.token(16), domain, source, ref);
            queued.put(domain, update);
            remember(tenant == null ? "" : tenant.organizationId(), update);
        }
        indexes.sync(domain, update);
        return update;
    }

    public synchronized DocsUpdate update(String statusId) {
        return statusId == null ? null : updates.get(statusId);
    }

    /** The trigger's step, after the admin key's admission: 202 and {@code {"statusId": …}}. */
    public static Processor trigger(DocsUpdates updates) {
        return exchange -> accepted(exchange, updates.trigger(
                exchange.getProperty(StepContract.TENANT, Tenant.class).domainId(), DocsUpdate.Source.api));
    }

    /**
     * The status endpoint's first step: the domain the status id belongs to, so the admin key's admission checks
     * the key's organization owns it (an unknown id is a 404, whoever asks: ids are random, not guessable).
     */
    public static Processor statusDomain(DocsUpdates updates) {
        return exchange -> {
            DocsUpdate update = updates.update(exchange.getMessage().getHeader("statusId", String.class));
            if (update == null) {
                throw new UpdateNotFoundException();
            }
            exchange.getMessage().setHeader("domain", update.domain());
            exchange.setProperty(DocsUpdate.class.getName(), update);
        };
    }

    /** The status endpoint's step, after admission: the update's view. */
    public static Processor status() {
        return exchange -> exchange.getMessage().setBody(
                exchange.getProperty(DocsUpdate.class.getName(), DocsUpdate.class).view());
    }

    /**
     * The push webhook's step, on the body as read: verified against the domain's {@code webhookSecret} (GitHub) or {@code gitlabToken} (401
     * otherwise, also for a domain that has none or whose docs are a folder), then a sync queued.
     */
    public static Processor webhook(DocsUpdates updates) {
        return exchange -> {
            String domain = exchange.getMessage().getHeader("domain", String.class);
            updates.verifyWebhook(exchange, exchange.getMessage().getBody(byte[].class));
            String signature = exchange.getMessage().getHeader("X-Hub-Signature-256", String.class);
            accepted(exchange, signature == null ? updates.trigger(domain, DocsUpdate.Source.gitlab)
                    : updates.delivered(domain, signature,
                            exchange.getMessage().getHeader("X-GitHub-Delivery", String.class)));
        };
    }

    /**
     * The push webhook's step before its body is read: what {@link WebhookSignature#verifyHeaders} refuses (no
     * signature, a domain without that provider's secret, a wrong GitLab token) is refused without the body.
     */
    public static Processor webhookSender(DocsUpdates updates) {
        return exchange -> updates.verifyWebhook(exchange, null);
    }

    /** The webhook's signature checked against its domain's secrets; {@code body} null: as far as the headers go. */
    private void verifyWebhook(Exchange exchange, byte[] body) {
        String domain = exchange.getMessage().getHeader("domain", String.class);
        Tenant tenant = Tenants.isDomainId(domain) ? tenants.tenant(domain) : null;
        String github = tenant == null ? null : tenant.domain().docs().webhookSecret();
        String gitlab = tenant == null ? null : tenant.domain().docs().gitlabToken();
        String signature = exchange.getMessage().getHeader("X-Hub-Signature-256", String.class);
        String token = exchange.getMessage().getHeader("X-Gitlab-Token", String.class);
        try {
            if (body == null) {
                WebhookSignature.verifyHeaders(github, gitlab, signature, token);
            } else {
                WebhookSignature.verify(github, gitlab, signature, token, body);
            }
        } catch (UnauthorizedException e) {
            ResponseHeaders.set(exchange, "WWW-Authenticate", "X-Hub-Signature-256, X-Gitlab-Token");
            throw e;
        }
    }

    /**
     * A verified GitHub delivery's update: the one it (or the same body, or the same delivery id) already answered
     * when that is still remembered, so a replay queues nothing; else a new trigger, remembered under both keys.
     */
    private DocsUpdate delivered(String domain, String signature, String deliveryId) {
        String byBody = "body:" + signature;
        String byId = deliveryId == null ? null : "delivery:" + deliveryId;
        synchronized (deliveries) {
            Map<String, DocsUpdate> seen = deliveries.get(domain);
            DocsUpdate earlier = seen == null ? null : seen.get(byBody);
            if (earlier == null && seen != null && byId != null) {
                earlier = seen.get(byId);
            }
            if (earlier != null) {
                return earlier;
            }
        }
        DocsUpdate update = trigger(domain, DocsUpdate.Source.github);
        synchronized (deliveries) {
            Map<String, DocsUpdate> seen = deliveries.computeIfAbsent(domain, d -> new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, DocsUpdate> eldest) {
                    return size() > 2 * RECENT_DELIVERIES; // two keys a delivery
                }
            });
            seen.put(byBody, update);
            if (byId != null) {
                seen.put(byId, update);
            }
        }
        return update;
    }

    private static void accepted(Exchange exchange, DocsUpdate update) {
        exchange.getMessage().setBody(Map.of("statusId", update.id()));
    }
}
