package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;

import dev.docsassistant.auth.Authenticate;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.web.ClientAddress;
import dev.docsassistant.web.ResponseHeaders;
import org.apache.camel.Exchange;

/**
 * Enforces the client IP's daily, the key's monthly (when set) and the organization's hourly quota before any
 * search or model work. Every response carries the {@code X-RateLimit-*} headers of the tightest quota; a refusal
 * adds {@code Retry-After}. The decision is left in {@value #DECISION} for the request log.
 */
public class Throttle implements org.apache.camel.Processor {

    /** The exchange property naming the decision: {@code allowed}, or which quota refused the request. */
    public static final String DECISION = "assistant.rateLimit";

    private static final Duration HOUR = Duration.ofHours(1);
    private static final Duration DAY = Duration.ofDays(1);
    /** The per-key "month": fixed 30-day windows, so any RateLimiter store counts it like the others. */
    private static final Duration MONTH = Duration.ofDays(30);

    private final RateLimiter limiter;
    private final long orgPerHour;
    private final long ipPerDay;
    private final long keyPerMonth;
    private final Clock clock = Clock.systemUTC();

    /** @param keyPerMonth requests per key per 30 days unless its organization says otherwise; 0 for no quota */
    public Throttle(RateLimiter limiter, long orgPerHour, long ipPerDay, long keyPerMonth) {
        this.limiter = limiter;
        this.orgPerHour = orgPerHour;
        this.ipPerDay = ipPerDay;
        this.keyPerMonth = keyPerMonth;
    }

    @Override
    public void process(Exchange exchange) {
        // The client's own quotas first: a client over them must not also burn its organization's.
        RateLimiter.Decision ip = limiter.acquire("ip:" + ClientAddress.of(exchange), ipPerDay, DAY);
        if (!ip.allowed()) {
            refuse(exchange, ip, "ip", "This client has used its " + ip.limit() + " assistant requests for today");
        }
        Tenant tenant = exchange.getProperty(Tenant.PROPERTY, Tenant.class);
        RateLimiter.Decision tightest = ip;
        Long keyConfigured = tenant.organization().monthlyRequestsPerKey();
        long keyLimit = keyConfigured != null ? keyConfigured : keyPerMonth;
        if (keyLimit > 0) {
            RateLimiter.Decision key = limiter.acquire("key:" + exchange.getProperty(Authenticate.KEY_ID), keyLimit,
                    MONTH);
            if (!key.allowed()) {
                refuse(exchange, key, "key", "This assistant key has used its " + key.limit()
                        + " requests for this 30-day period");
            }
            tightest = tighter(tightest, key);
        }
        Long configured = tenant.organization().rateLimitPerHour();
        RateLimiter.Decision org = limiter.acquire("org:" + tenant.organizationId(),
                configured != null ? configured : orgPerHour, HOUR);
        if (!org.allowed()) {
            refuse(exchange, org, "org", "This organization has used its " + org.limit()
                    + " assistant requests for this hour");
        }
        report(exchange, tighter(tightest, org));
        exchange.setProperty(DECISION, "allowed");
    }

    private static RateLimiter.Decision tighter(RateLimiter.Decision a, RateLimiter.Decision b) {
        return b.remaining() <= a.remaining() ? b : a;
    }

    private void refuse(Exchange exchange, RateLimiter.Decision decision, String quota, String detail) {
        report(exchange, decision);
        exchange.setProperty(DECISION, "refused:" + quota);
        ResponseHeaders.set(exchange, "Retry-After", decision.retryAfterSeconds(clock.instant().getEpochSecond()));
        throw new RateLimitExceededException(detail);
    }

    private static void report(Exchange exchange, RateLimiter.Decision decision) {
        ResponseHeaders.set(exchange, "X-RateLimit-Limit", decision.limit());
        ResponseHeaders.set(exchange, "X-RateLimit-Remaining", decision.remaining());
        ResponseHeaders.set(exchange, "X-RateLimit-Reset", decision.resetEpochSecond());
    }
}
