package dev.docsassistant.config;

import java.time.Duration;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * Where a domain's docs live ({@code docs:} in the tenants file): a folder ({@code docs: ./acme} or
 * {@code classpath:…}), a Git repository ({@code docs: {git: <url>, ref: <branch or tag>, path: <folder>}}) or a
 * published site ({@code docs: {site: <base url>}}). Exactly one of {@code folder}, {@code git} and {@code site}.
 *
 * @param credentials   the NAME of an environment variable, or of a file (a name with a slash, relative to the
 *                      tenants file), holding the token or {@code user:password}; never the secret itself
 * @param refresh       how often the source is synced ({@code 30s}, {@code 10m}, {@code 1h}); null for
 *                      {@code assistant.sources.refresh}
 * @param webhookSecret the NAME of an environment variable or file holding the push webhook's secret; none refuses
 *                      every webhook for the domain
 */
public record DocsSource(String folder, String git, String ref, String path, String credentials, String site,
        String refresh, String webhookSecret) {

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*([smhd]?)");

    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    public DocsSource {
        int kinds = (folder != null ? 1 : 0) + (git != null ? 1 : 0) + (site != null ? 1 : 0);
        if (kinds != 1 || (folder != null && folder.isBlank()) || (git != null && git.isBlank())
                || (site != null && site.isBlank())) {
            throw new IllegalArgumentException("docs must be a folder, {git: <url>, …} or {site: <url>}");
        }
        if (folder != null && (ref != null || path != null || credentials != null || webhookSecret != null)) {
            throw new IllegalArgumentException("a docs folder takes no ref, path, credentials or webhookSecret");
        }
        if (site != null && (ref != null || path != null || credentials != null || webhookSecret != null)) {
            throw new IllegalArgumentException("a docs site takes no ref, path, credentials or webhookSecret");
        }
        if (git != null && !git.matches("(?i)https?://[^/@\\s]+(/\\S*)?")) {
            // JGit's SSH transport (org.eclipse.jgit.ssh.apache) is not served by our Maven repository
            throw new IllegalArgumentException("git must be an https:// URL without user info (credentials: names "
                    + "the secret); SSH URLs are not supported");
        }
        if (site != null && !site.matches("(?i)https?://[^/@\\s]+(/\\S*)?")) {
            throw new IllegalArgumentException("site must be an https:// URL without user info");
        }
        if (refresh != null) {
            duration(refresh); // fails now, not at the first sync
        }
    }

    /** {@code docs: ./folder} or {@code docs: classpath:…}. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static DocsSource folder(String folder) {
        return new DocsSource(folder, null, null, null, null, null, null, null);
    }

    public boolean isFolder() {
        return folder != null;
    }

    /** The folder inside the repository that is indexed: the whole repository when none is named. */
    public String pathOrRoot() {
        return path == null ? "" : path.replaceAll("^/+|/+$", "");
    }

    /** The ref to serve: {@code main} when none is named. */
    public String refOrDefault() {
        return ref == null || ref.isBlank() ? "main" : ref;
    }

    /** How often to sync this source; {@code fallback} when the tenants file names no {@code refresh}. */
    public Duration refreshOr(Duration fallback) {
        return refresh == null ? fallback : duration(refresh);
    }

    private static Duration duration(String refresh) {
        Matcher m = DURATION.matcher(refresh.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("refresh '" + refresh + "' is not a duration like 30s, 10m or 1h");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ofSeconds(n);
        };
    }

    /** The same source with its folder and secret files ({@link #isFile}) resolved against the tenants file's. */
    DocsSource resolved(UnaryOperator<String> file) {
        return new DocsSource(folder == null ? null : file.apply(folder), git, ref, path,
                isFile(credentials) ? file.apply(credentials) : credentials, site, refresh,
                isFile(webhookSecret) ? file.apply(webhookSecret) : webhookSecret);
    }

    /** A secret's name with a slash is a file ({@code ./secrets/token}, {@code /var/run/…}), else a variable. */
    public static boolean isFile(String secretName) {
        return secretName != null && secretName.contains("/");
    }

    /** Where it is, for logs: never a credential (a URL's user info is dropped). */
    @Override
    public String toString() {
        if (folder != null) {
            return folder;
        }
        String url = (git != null ? git : site).replaceFirst("^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@]*@", "$1");
        return git != null ? url + "@" + refOrDefault() + (path == null ? "" : ":" + pathOrRoot()) : url;
    }
}
