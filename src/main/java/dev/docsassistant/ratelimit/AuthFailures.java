package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;

import dev.docsassistant.auth.UnauthorizedException;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.ground.ClientAddress;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.store.StoreUnavailableException;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The per-address limit that runs before authentication and before the body is read: an address
 * ({@link ClientAddress#limitUnit}) whose requests failed authentication (401: a missing or unknown key, a webhook not
 * signed with the domain's secret) {@code maxFailures} times in the current fixed window is refused, 429 with
 * {@code Retry-After} at the window's end and {@code X-RateLimit-Scope: ip-auth-failures}, whatever key it sends
 * now, so a wrong key cannot be tried without end and a refused client costs no body and no key lookup. Counted on
 * {@link WindowTotals}: Redis shared by every replica when configured, subject to
 * {@code assistant.redis.when-unreachable} as every quota is (closed: a failure that cannot be counted is answered 503,
 * as a right key is then, so nothing is tried uncounted and no 401 tells a wrong key apart).
 * <p>
 * The check costs no round trip to the store: it reads the address's failures this instance has {@link
 * WindowTotals#seen}, as counting one of them returns every replica's total. A failure counted past the limit is
 * answered as the check refuses (429, no {@code WWW-Authenticate}), so once past it no answer tells a wrong key from a
 * right one. The bound this leaves, per address and window: besides the requests in flight at once when the limit is
 * reached (the check and the count were never one step), each instance that has not yet counted one of the address's
 * failures past the limit lets one more request reach the key (the one whose count teaches it), and as many more as
 * times its totals (16 MiB) forgot the address; so at most one request per replica past the limit is answered as its
 * key deserves, and a right key may be served by a replica that has not yet seen the address fail.
 * <p>
 * As a step ({@code ref: authFailures}) it checks; the error handler's {@link #counter} step adds a 401 to the key the
 * check used, so only a guarded route counts, and into its own key. The webhook's guard ({@link #perDomain}) counts
 * per address and domain: a webhook host's addresses are shared by every repository it serves (anyone can point a
 * hook with a wrong secret at any domain), so its failures block that domain's deliveries from that address only,
 * never the host's deliveries to other domains nor the address's other requests; every domain the tenants file does
 * not have counts as one, so made-up domains are no fresh budget.
 */
public class AuthFailures implements Processor {

    private final WindowTotals totals;
    private final long maxFailures;
    private final Duration window;
    /** The tenants whose domains the webhook's failures are counted by; null to count per address alone. */
    private final Tenants perDomain;
    private final Clock clock = Clock.systemUTC();

    /**
     * @param maxFailures   401s an address may get per window; 0 for no limit
     * @param windowSeconds the fixed window's length
     */
    public AuthFailures(WindowTotals totals, long maxFailures, long windowSeconds) {
        this(totals, maxFailures, windowSeconds, null);
    }

    private AuthFailures(WindowTotals totals, long maxFailures, long windowSeconds, Tenants perDomain) {
        if (maxFailures > 0 && windowSeconds < 1) {
            throw new IllegalArgumentException("assistant.ratelimit.ip-auth-failures-window-seconds must be at least 1,"
                    + " not " + windowSeconds);
        }
        this.totals = totals;
        this.maxFailures = maxFailures;
        this.window = Duration.ofSeconds(Math.max(1, windowSeconds));
        this.perDomain = perDomain;
    }

    /** The webhook's guard ({@code ref: webhookAuthFailures}): the same budget, counted per address and domain. */
    public static AuthFailures perDomain(WindowTotals totals, Tenants tenants, long maxFailures, long windowSeconds) {
        return new AuthFailures(totals, maxFailures, windowSeconds, tenants);
    }

    /**
     * The error handler's step: counts a refused authentication against the guard that let the request in, which
     * may turn the refusal into the guard's own (see the class comment).
     */
    public static Processor counter() {
        return exchange -> {
            Runnable count = exchange.getProperty(StepContract.AUTH_FAILURE, Runnable.class);
            if (count != null && exchange.getProperty(Exchange.EXCEPTION_CAUGHT) instanceof UnauthorizedException) {
                count.run();
            }
        };
    }

    @Override
    public void process(Exchange exchange) {
        if (maxFailures <= 0) {
            return;
        }
        String key = key(exchange);
        if (totals.seen(key, window)[0] >= maxFailures) {
            throw refusal(exchange);
        }
        exchange.setProperty(StepContract.AUTH_FAILURE, (Runnable) () -> count(exchange, key));
    }

    /** Counts the exchange's failed authentication; answers it as refused if it was past the limit or uncounted. */
    private void count(Exchange exchange, String key) {
        Exception answer;
        try {
            if (totals.add(key, 1, window)[0] <= maxFailures) {
                return;
            }
            answer = refusal(exchange);
        } catch (StoreUnavailableException e) {
            answer = e; // Redis unreachable and closed
        }
        ResponseHeaders.of(exchange).remove("WWW-Authenticate");
        exchange.setProperty(Exchange.EXCEPTION_CAUGHT, answer);
    }

    private String key(Exchange exchange) {
        String address = ClientAddress.limitUnit(ClientAddress.of(exchange));
        if (perDomain == null) {
            return "auth-failures:" + address;
        }
        String domain = exchange.getMessage().getHeader("domain", String.class);
        // every domain not in the tenants file is one key: an address gets a budget per real domain, no more
        boolean known = Tenants.isDomainId(domain) && perDomain.tenant(domain) != null;
        return "auth-failures:" + (known ? domain : "-") + ":" + address;
    }

    private RateLimitExceededException refusal(Exchange exchange) {
        long now = clock.millis();
        long end = RateLimiter.windowEndMillis(now, window);
        exchange.setProperty(StepContract.RATE_LIMIT, "refused:ip-auth-failures");
        ResponseHeaders.set(exchange, "X-RateLimit-Limit", maxFailures);
        ResponseHeaders.set(exchange, "X-RateLimit-Remaining", 0);
        ResponseHeaders.set(exchange, "X-RateLimit-Reset", (end + 999) / 1000);
        ResponseHeaders.set(exchange, "X-RateLimit-Scope", "ip-auth-failures");
        ResponseHeaders.set(exchange, "Retry-After", Math.max(1, (end - now + 999) / 1000));
        return new RateLimitExceededException("This address failed authentication " + maxFailures
                + " times in this window: it is refused until the window ends");
    }
}
