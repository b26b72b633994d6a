package dev.docsassistant.analytics;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;

import dev.docsassistant.ground.InvalidRequestException;
import org.apache.camel.Message;

/**
 * The query of an analytics listing, as Mintlify's: {@code dateFrom} (inclusive) and {@code dateTo} (exclusive), each
 * an ISO-8601 date-time (seconds and zone optional, UTC when it has none) or a {@code YYYY-MM-DD} day (its start,
 * UTC); {@code limit} within the endpoint's range; and
 * the {@code cursor} a previous page returned, opaque to the client (a row id here). Each is optional and checked.
 */
record AnalyticsQuery(Instant from, Instant to, int limit, long cursor) {

    static final long NO_CURSOR = Long.MAX_VALUE;
    private static final Instant LATEST = Instant.parse("9999-01-01T00:00:00Z");

    static AnalyticsQuery of(Message message, int defaultLimit, int maxLimit) {
        Instant from = instant(message, "dateFrom", Instant.EPOCH);
        Instant to = instant(message, "dateTo", LATEST);
        if (!from.isBefore(to)) {
            throw new InvalidRequestException("dateTo", "dateTo must be later than dateFrom");
        }
        long limit = number(message, "limit", defaultLimit);
        if (limit < 1 || limit > maxLimit) {
            throw new InvalidRequestException("limit", "limit must be a whole number from 1 to " + maxLimit);
        }
        long cursor = number(message, "cursor", NO_CURSOR);
        if (cursor < 0) {
            throw new InvalidRequestException("cursor", "cursor must be one a previous page returned");
        }
        return new AnalyticsQuery(from, to, (int) limit, cursor);
    }

    /** Mintlify's {@code offset} of the paged listings that take one: rows skipped, 0 when absent. */
    static long offset(Message message) {
        long offset = number(message, "offset", 0);
        if (offset < 0) {
            throw new InvalidRequestException("offset", "offset must be a whole number from 0");
        }
        return offset;
    }

    private static long number(Message message, String name, long absent) {
        String value = message.getHeader(name, String.class);
        if (value == null) {
            return absent;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static Instant instant(Message message, String name, Instant absent) {
        String value = message.getHeader(name, String.class);
        if (value == null) {
            return absent;
        }
        Instant instant;
        try {
            if (value.length() == 10) {
                instant = LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
            } else {
                TemporalAccessor time = DateTimeFormatter.ISO_DATE_TIME.parseBest(value, ZonedDateTime::from,
                        LocalDateTime::from);
                instant = time instanceof ZonedDateTime zoned ? zoned.toInstant()
                        : ((LocalDateTime) time).toInstant(ZoneOffset.UTC);
            }
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException(name, name + " must be a date (2026-11-01) or an ISO-8601 date-time "
                    + "(2026-11-01T00:00:00Z, 2026-11-01T00:00, seconds and zone optional)");
        }
        if (instant.isBefore(Instant.EPOCH) || instant.isAfter(LATEST)) {
            // past these, a store's milliseconds overflow: a 400, never a 500
            throw new InvalidRequestException(name, name + " must be from 1970-01-01 to 9999-01-01");
        }
        return instant;
    }
}
