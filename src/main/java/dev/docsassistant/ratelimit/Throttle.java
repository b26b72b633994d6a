package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.web.ResponseHeaders;
import io.vertx.core.http.HttpServerRequest;
import org.apache.camel.Exchange;
import org.apache.camel.component.platform.http.vertx.HttpMessage;

/**
 * Enforces the organization's hourly and the client IP's daily quota before any search or model work. Every
 * response carries the {@code X-RateLimit-*} headers of the tighter quota; a refusal adds {@code Retry-After}.
 */
public class Throttle implements org.apache.camel.Processor {

    private static final Duration HOUR = Duration.ofHours(1);
    private static final Duration DAY = Duration.ofDays(1);

    private final RateLimiter limiter;
    private final long orgPerHour;
    private final long ipPerDay;
    private final Clock clock = Clock.systemUTC();

    public Throttle(RateLimiter limiter, long orgPerHour, long ipPerDay) {
        this.limiter = limiter;
        this.orgPerHour = orgPerHour;
        this.ipPerDay = ipPerDay;
    }

    @Override
    public void process(Exchange exchange) {
        // The client's own quota first: a client over its daily quota must not also burn its organization's.
        RateLimiter.Decision ip = limiter.acquire("ip:" + clientIp(exchange), ipPerDay, DAY);
        if (!ip.allowed()) {
            refuse(exchange, ip, "This client has used its " + ip.limit() + " assistant requests for today");
        }
        Tenant tenant = exchange.getProperty(Tenant.PROPERTY, Tenant.class);
        Long configured = tenant.organization().rateLimitPerHour();
        RateLimiter.Decision org = limiter.acquire("org:" + tenant.organizationId(),
                configured != null ? configured : orgPerHour, HOUR);
        if (!org.allowed()) {
            refuse(exchange, org, "This organization has used its " + org.limit() + " assistant requests for this hour");
        }
        report(exchange, org.remaining() <= ip.remaining() ? org : ip);
    }

    private void refuse(Exchange exchange, RateLimiter.Decision decision, String detail) {
        report(exchange, decision);
        ResponseHeaders.set(exchange, "Retry-After", decision.retryAfterSeconds(clock.instant().getEpochSecond()));
        throw new RateLimitExceededException(detail);
    }

    private static void report(Exchange exchange, RateLimiter.Decision decision) {
        ResponseHeaders.set(exchange, "X-RateLimit-Limit", decision.limit());
        ResponseHeaders.set(exchange, "X-RateLimit-Remaining", decision.remaining());
        ResponseHeaders.set(exchange, "X-RateLimit-Reset", decision.resetEpochSecond());
    }

    static String clientIp(Exchange exchange) {
        HttpServerRequest request = exchange.getMessage(HttpMessage.class).getRequest();
        return request.remoteAddress().hostAddress();
    }
}
