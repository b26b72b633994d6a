package dev.docsassistant.ground;

/**
 * A request the service refuses. It carries what the client reads (a stable {@code code}, the {@code detail} and
 * the offending {@code field}); the HTTP status is chosen by the error routeConfiguration ({@code errors.yaml}),
 * so that mapping stays declarative.
 */
public abstract class ApiException extends RuntimeException {

    private final String code;
    private final String field;

    protected ApiException(String code, String detail, String field) {
        super(detail, null, false, false);
        this.code = code;
        this.field = field;
    }

    public String code() {
        return code;
    }

    /** The request field at fault (e.g. {@code messages[0].id}), or null. */
    public String field() {
        return field;
    }

    /** Seconds the client should wait before trying again ({@code Retry-After}), or null. */
    public Long retryAfterSeconds() {
        return null;
    }
}
