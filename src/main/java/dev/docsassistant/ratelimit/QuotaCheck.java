package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.ClientAddress;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.StepContract;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.support.SynchronizationAdapter;

/**
 * Enforces every request quota before any search or model work, from the headers alone, in this order: the client
 * address's short-window rate (a token bucket) and its open requests, its daily quota, the key's monthly quota (when
 * set), then the organization's hourly quota. The client's own limits come first, so a request refused for its
 * address never counts against its organization. An address is an IPv4 address or an IPv6 /64
 * ({@link ClientAddress#limitUnit}). The organization's open requests are counted by a later step
 * ({@link #organizationStreams}), once the body is in: a request still arriving holds no place of its organization,
 * so clients that stall their bodies cannot fill them (an address's own places bound how many it can stall); an
 * address that already holds one of them cannot take the last {@code streamsReservePercent} of them, kept for
 * addresses holding none, so a few busy addresses cannot take them all. An
 * admitted request holds its places until its exchange is done, however it ends (answered, client gone, failed, cut
 * at shutdown).
 * <p>
 * Every response carries the {@code X-RateLimit-*} headers of the tightest counted quota, {@code X-RateLimit-Scope}
 * naming it ({@code ip-minute}, {@code ip-day}, {@code key}, {@code org}); a refusal carries those of the limit that
 * refused ({@code ip-streams} and {@code org-streams} too) and {@code Retry-After}. The decision is left in
 * {@value StepContract#RATE_LIMIT} for the request log.
 */
public class QuotaCheck implements Processor {

    private static final Duration HOUR = Duration.ofHours(1);
    private static final Duration DAY = Duration.ofDays(1);
    /** The per-key "month": fixed 30-day windows, so any RateLimiter store counts it like the others. */
    private static final Duration MONTH = Duration.ofDays(30);
    /** How long a client refused for too many open requests is asked to wait: about as long as an answer streams. */
    private static final long STREAMS_RETRY_SECONDS = 5;

    /** A limit's figures and the name the client is told. */
    private record Applied(String scope, RateLimiter.Decision decision) {
    }

    private final RateLimiter limiter;
    private final long orgPerHour;
    private final long ipPerDay;
    private final long keyPerMonth;
    private final long ipPerMinute;
    private final long ipBurst;
    private final long ipMaxStreams;
    private final long orgMaxStreams;
    private final int orgStreamsReservePercent;
    private final Clock clock = Clock.systemUTC();

    /**
     * A client address's quotas.
     *
     * @param perMinute  its sustained rate, with {@code burst} at once; 0 for no short-window limit
     * @param perDay     requests per UTC day
     * @param maxStreams requests it may have open at once; 0 for no cap
     */
    public record ClientQuotas(long perMinute, long burst, long perDay, long maxStreams) {
    }

    /**
     * An organization's quotas, unless its entry in the tenants file says otherwise.
     *
     * @param keyPerMonth requests per key per 30 days; 0 for no quota
     * @param maxStreams  requests it may have open at once; 0 for no cap
     * @param streamsReservePercent the share of those places (rounded up) that an address already holding one of
     *                   them cannot take: they stay for addresses that hold none, so a few busy addresses cannot
     *                   take them all
     */
    public record OrganizationQuotas(long perHour, long keyPerMonth, long maxStreams, int streamsReservePercent) {

        public OrganizationQuotas {
            if (streamsReservePercent < 0 || streamsReservePercent > 100) {
                throw new IllegalArgumentException("assistant.ratelimit.org-streams-reserve-percent must be 0 to 100, "
                        + "not " + streamsReservePercent);
            }
        }
    }

    public QuotaCheck(RateLimiter limiter, ClientQuotas client, OrganizationQuotas organization) {
        if (client.perMinute() > 0 && client.burst() < 1) {
            throw new IllegalArgumentException("assistant.ratelimit.ip-burst must be at least 1 (a request takes one "
                    + "token), not " + client.burst());
        }
        this.limiter = limiter;
        this.orgPerHour = organization.perHour();
        this.ipPerDay = client.perDay();
        this.keyPerMonth = organization.keyPerMonth();
        this.ipPerMinute = client.perMinute();
        this.ipBurst = client.burst();
        this.ipMaxStreams = client.maxStreams();
        this.orgMaxStreams = organization.maxStreams();
        this.orgStreamsReservePercent = organization.streamsReservePercent();
    }

    @Override
    public void process(Exchange exchange) {
        admit(exchange, true);
    }

    /**
     * The step of the docs team's endpoints (admin keys: analytics, threads, updates): the client address's limits
     * only. They do not spend the organization's hourly assistant quota, which is its readers'; analytics have their
     * own hourly quota.
     */
    public static Processor clientLimits(QuotaCheck quotas) {
        return exchange -> quotas.admit(exchange, false);
    }

    private void admit(Exchange exchange, boolean countOrganization) {
        String client = client(exchange);
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        Applied tightest = null;
        if (ipPerMinute > 0) {
            tightest = admit(exchange, null, "ip-minute", limiter.take(client, ipPerMinute, ipBurst),
                    "This client is sending more than %d requests a minute", ipPerMinute);
        }
        RateLimiter.Lease place = hold(exchange, () -> limiter.open(client, ipMaxStreams), ipMaxStreams, "ip-streams",
                "This client already has " + ipMaxStreams + " assistant requests open at once");
        try {
            tightest = admit(exchange, tightest, "ip-day", limiter.acquire(client, ipPerDay, DAY),
                    "This client has used its %d assistant requests for today", ipPerDay);
            Long keyConfigured = tenant.organization().monthlyRequestsPerKey();
            long keyLimit = keyConfigured != null ? keyConfigured : keyPerMonth;
            if (keyLimit > 0) {
                tightest = admit(exchange, tightest, "key", limiter.acquire("key:"
                        + exchange.getProperty(StepContract.KEY_ID), keyLimit, MONTH),
                        "This assistant key has used its %d requests for this 30-day period", keyLimit);
            }
            if (countOrganization) {
                Long configured = tenant.organization().rateLimitPerHour();
                long orgLimit = configured != null ? configured : orgPerHour;
                tightest = admit(exchange, tightest, "org", limiter.acquire("org:" + tenant.organizationId(), orgLimit,
                        HOUR), "This organization has used its %d assistant requests for this hour", orgLimit);
            }
        } catch (RuntimeException e) {
            if (place != null) {
                place.release();
            }
            throw e;
        }
        releaseWhenDone(exchange, place);
        report(exchange, tightest);
        exchange.setProperty(StepContract.RATE_LIMIT, "allowed");
    }

    /** The step that holds one of the organization's open places (see the class comment), or refuses. */
    public static Processor organizationStreams(QuotaCheck quotas) {
        return quotas::holdOrganizationPlace;
    }

    private void holdOrganizationPlace(Exchange exchange) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        Long configured = tenant.organization().maxConcurrentStreams();
        long max = configured != null ? configured : orgMaxStreams;
        // Rounded up: any reserve percent keeps at least one place for a new address.
        long reserve = (max * orgStreamsReservePercent + 99) / 100;
        releaseWhenDone(exchange, hold(exchange, () -> limiter.open("org:" + tenant.organizationId(), max, client(exchange),
                reserve), max, "org-streams", "This organization already has its " + max + " assistant requests "
                + "open at once, or all but the " + reserve + " kept for addresses with none open"));
    }

    /** The client address's counters' key. */
    private static String client(Exchange exchange) {
        return "ip:" + ClientAddress.limitUnit(ClientAddress.of(exchange));
    }

    /** Gives {@code place} back once the exchange is done, however it ended; nothing for no place. */
    private static void releaseWhenDone(Exchange exchange, RateLimiter.Lease place) {
        if (place != null) {
            exchange.getExchangeExtension().addOnCompletion(new ReleaseWhenDone(place));
        }
    }

    /** One object per place held, and nothing per request when no cap is set. */
    private static final class ReleaseWhenDone extends SynchronizationAdapter {

        private final RateLimiter.Lease place;

        ReleaseWhenDone(RateLimiter.Lease place) {
            this.place = place;
        }

        @Override
        public void onDone(Exchange exchange) {
            place.release();
        }
    }

    /**
     * The tighter of {@code tightest} and this limit's decision, or a refusal if the decision is one, told as
     * {@code detail} with {@code limit} for its {@code %d}: the text is only built for a refusal.
     */
    private Applied admit(Exchange exchange, Applied tightest, String scope, RateLimiter.Decision decision,
            String detail, long limit) {
        Applied applied = new Applied(scope, decision);
        if (!decision.allowed()) {
            // ASCII digits whatever the JVM's locale, as the concatenation this replaced wrote them
            refuse(exchange, applied, String.format(Locale.ROOT, detail, limit));
        }
        return tightest == null || decision.remaining() <= tightest.decision().remaining() ? applied : tightest;
    }

    /**
     * The place {@code open} takes among at most {@code max} open requests, or a refusal told as {@code detail}.
     *
     * @return the place, to be given back; null if {@code max} is 0 (no cap, nothing counted, nothing opened)
     */
    private RateLimiter.Lease hold(Exchange exchange, Supplier<RateLimiter.Lease> open, long max, String scope,
            String detail) {
        if (max <= 0) {
            return null;
        }
        RateLimiter.Lease lease = open.get();
        if (!lease.granted()) {
            long retry = clock.instant().getEpochSecond() + STREAMS_RETRY_SECONDS;
            refuse(exchange, new Applied(scope, new RateLimiter.Decision(false, max, 0, retry)), detail);
        }
        return lease;
    }

    private void refuse(Exchange exchange, Applied applied, String detail) {
        report(exchange, applied);
        exchange.setProperty(StepContract.RATE_LIMIT, "refused:" + applied.scope());
        ResponseHeaders.set(exchange, "Retry-After",
                applied.decision().retryAfterSeconds(clock.instant().getEpochSecond()));
        throw new RateLimitExceededException(detail);
    }

    private static void report(Exchange exchange, Applied applied) {
        ResponseHeaders.set(exchange, "X-RateLimit-Limit", applied.decision().limit());
        ResponseHeaders.set(exchange, "X-RateLimit-Remaining", applied.decision().remaining());
        ResponseHeaders.set(exchange, "X-RateLimit-Reset", applied.decision().resetEpochSecond());
        ResponseHeaders.set(exchange, "X-RateLimit-Scope", applied.scope());
    }
}
