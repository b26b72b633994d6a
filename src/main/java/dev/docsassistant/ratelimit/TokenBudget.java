package dev.docsassistant.ratelimit;

import java.time.Clock;
import java.time.Duration;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.TenantsFile;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.observe.AssistantMetrics;
import dev.docsassistant.store.StoreUnavailableException;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An organization's model-token budget per clock hour and per UTC day (its {@code tokensPerHour} and
 * {@code tokensPerDay}, else {@code assistant.ratelimit.org-tokens-per-hour} and {@code -per-day}; 0 for none). As a
 * step it refuses, before any search or model work, a request whose organization has spent a window's budget: 429
 * with {@code Retry-After} at that window's end. What a paid model spent on an answer is added when the answer ends
 * ({@link #spend}), so an organization overshoots by at most the answers already under way when it reaches its
 * budget, each bounded by the prompt budget and {@code max-tokens} per step.
 */
public class TokenBudget implements Processor {

    private static final Logger LOG = LoggerFactory.getLogger(TokenBudget.class);
    private static final Duration HOUR = Duration.ofHours(1);
    private static final Duration DAY = Duration.ofDays(1);

    private final WindowTotals totals;
    private final long perHour;
    private final long perDay;
    private final AssistantMetrics metrics;
    private final Clock clock = Clock.systemUTC();

    /** @param perHour, perDay an organization's budgets unless it sets its own; 0 for none */
    public TokenBudget(WindowTotals totals, long perHour, long perDay, AssistantMetrics metrics) {
        this.totals = totals;
        this.perHour = perHour;
        this.perDay = perDay;
        this.metrics = metrics;
    }

    @Override
    public void process(Exchange exchange) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        long hourLimit = hourLimit(tenant.organization());
        long dayLimit = dayLimit(tenant.organization());
        if (hourLimit <= 0 && dayLimit <= 0) {
            return;
        }
        long[] spent = totals.totals(key(tenant), HOUR, DAY);
        if (hourLimit > 0 && spent[0] >= hourLimit) {
            refuse(exchange, HOUR, "This organization has used its " + hourLimit + " model tokens for this hour");
        }
        if (dayLimit > 0 && spent[1] >= dayLimit) {
            refuse(exchange, DAY, "This organization has used its " + dayLimit + " model tokens for today (UTC)");
        }
    }

    /**
     * Counts what a paid model spent on one answer: in the metric always, against the budget when the organization
     * has one. The answer is already out, so a store that refuses (Redis unreachable and {@code closed}) loses the
     * amount rather than failing anything.
     */
    public void spend(Tenant tenant, long promptTokens, long completionTokens) {
        long amount = promptTokens + completionTokens;
        if (amount > 0 && (hourLimit(tenant.organization()) > 0 || dayLimit(tenant.organization()) > 0)) {
            try {
                totals.add(key(tenant), amount, HOUR, DAY);
            } catch (StoreUnavailableException e) {
                LOG.debug("{} model tokens of organization '{}' not counted: the store is unavailable", amount,
                        tenant.organizationId());
            }
        }
        metrics.modelTokens(tenant, promptTokens, completionTokens);
    }

    private long hourLimit(TenantsFile.Organization organization) {
        return organization.tokensPerHour() != null ? organization.tokensPerHour() : perHour;
    }

    private long dayLimit(TenantsFile.Organization organization) {
        return organization.tokensPerDay() != null ? organization.tokensPerDay() : perDay;
    }

    private static String key(Tenant tenant) {
        return "tokens:" + tenant.organizationId();
    }

    private void refuse(Exchange exchange, Duration window, String detail) {
        long now = clock.millis();
        exchange.setProperty(StepContract.RATE_LIMIT, "refused:tokens");
        ResponseHeaders.set(exchange, "Retry-After",
                Math.max(1, (RateLimiter.windowEndMillis(now, window) - now + 999) / 1000));
        throw new RateLimitExceededException(detail);
    }
}
