package dev.docsassistant.thread;

import java.time.Instant;
import java.time.format.DateTimeParseException;

import dev.docsassistant.ground.InvalidRequestException;
import org.apache.camel.Exchange;

/**
 * The query of an admin listing: {@code since} (inclusive) and {@code until} (exclusive) as ISO-8601 instants,
 * {@code fp}, and {@code limit}, each optional and checked.
 */
public record AdminQuery(Instant since, Instant until, String fp, int limit) {

    /** The latest instant a query takes, and the default {@code until}: far past any thread, far from overflow. */
    private static final Instant LATEST = Instant.ofEpochMilli(Long.MAX_VALUE / 2);

    static final int MAX_FP = 200;

    public static AdminQuery of(Exchange exchange, int defaultLimit, int maxLimit) {
        String fp = exchange.getMessage().getHeader("fp", String.class);
        if (fp != null && (fp.isBlank() || fp.length() > MAX_FP)) {
            throw new InvalidRequestException("fp", "fp must be a reader's fp: 1 to " + MAX_FP + " characters");
        }
        String limit = exchange.getMessage().getHeader("limit", String.class);
        int max;
        try {
            max = limit == null ? defaultLimit : Integer.parseInt(limit);
        } catch (NumberFormatException e) {
            max = 0;
        }
        if (max < 1 || max > maxLimit) {
            throw new InvalidRequestException("limit", "limit must be a whole number from 1 to " + maxLimit);
        }
        Instant since = instant(exchange, "since", Instant.EPOCH);
        Instant until = instant(exchange, "until", LATEST);
        if (!since.isBefore(until)) {
            throw new InvalidRequestException("until", "until must be later than since");
        }
        return new AdminQuery(since, until, fp, max);
    }

    private static Instant instant(Exchange exchange, String name, Instant absent) {
        String value = exchange.getMessage().getHeader(name, String.class);
        if (value == null) {
            return absent;
        }
        Instant instant;
        try {
            instant = Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException(name, name + " must be an ISO-8601 instant, e.g. 2026-11-01T00:00:00Z");
        }
        // the stores count in epoch milliseconds: an instant they cannot hold would fail the read, not match nothing
        if (instant.isBefore(Instant.EPOCH) || instant.isAfter(LATEST)) {
            throw new InvalidRequestException(name, name + " must be an instant from 1970-01-01T00:00:00Z on, "
                    + "e.g. 2026-11-01T00:00:00Z");
        }
        return instant;
    }
}
