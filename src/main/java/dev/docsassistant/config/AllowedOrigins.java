package dev.docsassistant.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The browser origins a domain's widget may call from: exact origins ({@code https://docs.acme.com}) or one
 * leading wildcard label ({@code https://*.acme.com}, which matches any subdomain but not {@code acme.com} itself).
 * An empty list, or {@code *}, allows any origin.
 */
public final class AllowedOrigins {

    public static final AllowedOrigins ANY = new AllowedOrigins(List.of(), List.of());

    private static final Pattern ORIGIN = Pattern.compile("(?i)https?://[a-z0-9.-]+(:[0-9]{1,5})?");
    private static final Pattern WILDCARD = Pattern.compile("(?i)(https?://)\\*\\.([a-z0-9.-]+(:[0-9]{1,5})?)");
    private static final String SUBDOMAIN = "[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*";

    private final List<String> exact;
    private final List<Pattern> patterns;

    private AllowedOrigins(List<String> exact, List<Pattern> patterns) {
        this.exact = exact;
        this.patterns = patterns;
    }

    /** @throws IllegalArgumentException naming an entry that is neither an origin nor a wildcard pattern */
    public static AllowedOrigins of(List<String> configured) {
        if (configured == null || configured.isEmpty() || configured.contains("*")) {
            return ANY;
        }
        List<String> exact = new ArrayList<>();
        List<Pattern> patterns = new ArrayList<>();
        for (String entry : configured) {
            String origin = entry == null ? "" : entry.trim().replaceAll("/+$", "").toLowerCase(Locale.ROOT);
            var wildcard = WILDCARD.matcher(origin);
            if (wildcard.matches()) {
                patterns.add(Pattern.compile(Pattern.quote(wildcard.group(1)) + SUBDOMAIN
                        + Pattern.quote("." + wildcard.group(2)), Pattern.CASE_INSENSITIVE));
            } else if (ORIGIN.matcher(origin).matches()) {
                exact.add(origin);
            } else {
                throw new IllegalArgumentException("allowedOrigins entry '" + entry
                        + "' is not an origin (https://docs.example.com) or a pattern (https://*.example.com)");
            }
        }
        return new AllowedOrigins(List.copyOf(exact), List.copyOf(patterns));
    }

    public boolean allowsAny() {
        return exact.isEmpty() && patterns.isEmpty();
    }

    /** Whether a request with this {@code Origin} header may be answered. */
    public boolean allows(String origin) {
        if (allowsAny()) {
            return true;
        }
        if (origin == null || origin.length() > 300) {
            return false;
        }
        String normalized = origin.toLowerCase(Locale.ROOT);
        return exact.contains(normalized) || patterns.stream().anyMatch(p -> p.matcher(normalized).matches());
    }
}
