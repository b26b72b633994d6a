package dev.docsassistant.web;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import dev.docsassistant.config.Tenants;
import dev.docsassistant.ground.ResponseHeaders;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Marks a response of a deprecated endpoint as the standards say: {@code Deprecation: @<epoch seconds>} (RFC 9745),
 * {@code Sunset: <HTTP-date>} (RFC 8594) once the operator has set one, and {@code Link} to the migration notes
 * ({@code rel="deprecation"}) and to the endpoint that replaces it ({@code rel="successor-version"}). It runs first
 * in the route, so errors carry the headers too ({@link ResponseHeaders}).
 */
public class Deprecation implements Processor {

    private final String deprecation;
    private final String sunset;
    private final String migrationUrl;
    private final String successorPath;

    /**
     * @param deprecatedAt  when the endpoint was deprecated, an ISO-8601 instant
     * @param sunset        when it stops answering, an ISO-8601 instant; empty for no date yet
     * @param migrationUrl  the migration notes; empty for none
     * @param successorPath the successor's path, {@code {domain}} standing for the request's domain
     */
    public Deprecation(String deprecatedAt, String sunset, String migrationUrl, String successorPath) {
        this.deprecation = "@" + Instant.parse(deprecatedAt.strip()).getEpochSecond();
        this.sunset = sunset.isBlank() ? null
                : DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.parse(sunset.strip()).atOffset(ZoneOffset.UTC));
        this.migrationUrl = migrationUrl.strip();
        this.successorPath = successorPath;
    }

    @Override
    public void process(Exchange exchange) {
        ResponseHeaders.set(exchange, "Deprecation", deprecation);
        if (sunset != null) {
            ResponseHeaders.set(exchange, "Sunset", sunset);
        }
        String domain = exchange.getMessage().getHeader("domain", String.class);
        // the successor is named only for a well-formed domain, so no client text reaches a header unchecked
        String successor = Tenants.isDomainId(domain)
                ? "<" + successorPath.replace("{domain}", domain) + ">; rel=\"successor-version\"" : null;
        String deprecationLink = migrationUrl.isEmpty() ? null : "<" + migrationUrl + ">; rel=\"deprecation\"";
        String link = deprecationLink == null ? successor
                : successor == null ? deprecationLink : deprecationLink + ", " + successor;
        if (link != null) {
            ResponseHeaders.set(exchange, "Link", link);
        }
    }
}
