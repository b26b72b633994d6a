package dev.docsassistant.config;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
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
 * @param webhookSecret the NAME of an environment variable or file holding GitHub's push webhook secret (the
 *                      HMAC key of {@code X-Hub-Signature-256}); none refuses every GitHub webhook for the domain
 * @param sshKey        for an SSH {@code git} URL: the file (relative to the tenants file) holding the unencrypted
 *                      private key, read at each sync; never the key itself
 * @param knownHosts    for an SSH {@code git} URL: the OpenSSH known_hosts file listing the server's host key; a host
 *                      key not listed there fails the sync
 * @param gitlabToken   the NAME of an environment variable or file holding GitLab's push webhook token
 *                      ({@code X-Gitlab-Token}), never the same as {@code webhookSecret}: a token GitLab sends in the
 *                      clear must not also sign GitHub's webhooks; none refuses every GitLab webhook
 */
public record DocsSource(String folder, String git, String ref, String path, String credentials, String site,
        String refresh, String webhookSecret, String sshKey, String knownHosts, String gitlabToken) {

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*([smhd]?)");
    private static final Pattern HTTP_URL = Pattern.compile("(?i)https?://[^/@\\s]+(/\\S*)?");
    /** {@code ssh://[user@]host[:port]/path} or scp-like {@code user@host:path}; a user name, never a password. */
    private static final Pattern SSH_URL = Pattern.compile(
            "(?i)ssh://([^/@:\\s]+@)?[^/@\\s]+/\\S+|[^/@:\\s]+@[^/@:\\s]+:\\S+");

    /** An environment variable's name as the tenants file gives one: capitals, digits and underscores. */
    private static final Pattern VARIABLE = Pattern.compile("[A-Z_][A-Z0-9_]{0,127}");

    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    public DocsSource {
        int kinds = (folder != null ? 1 : 0) + (git != null ? 1 : 0) + (site != null ? 1 : 0);
        if (kinds != 1 || (folder != null && folder.isBlank()) || (git != null && git.isBlank())
                || (site != null && site.isBlank())) {
            throw new IllegalArgumentException("docs must be a folder, {git: <url>, …} or {site: <url>}");
        }
        boolean gitOptions = ref != null || path != null || credentials != null || webhookSecret != null
                || sshKey != null || knownHosts != null || gitlabToken != null;
        if (folder != null && gitOptions) {
            throw new IllegalArgumentException("a docs folder takes no ref, path, credentials, webhookSecret, sshKey "
                    + "or knownHosts");
        }
        if (site != null && gitOptions) {
            throw new IllegalArgumentException("a docs site takes no ref, path, credentials, webhookSecret, sshKey or "
                    + "knownHosts");
        }
        if (git != null && SSH_URL.matcher(git).matches()) {
            if (credentials != null) {
                throw new IllegalArgumentException("an SSH git URL authenticates with sshKey: credentials are for "
                        + "https:// URLs");
            }
            if (sshKey == null || sshKey.isBlank() || knownHosts == null || knownHosts.isBlank()) {
                throw new IllegalArgumentException("an SSH git URL needs sshKey (the private key's file) and "
                        + "knownHosts (a known_hosts file with the server's host key)");
            }
        } else if (git != null && !HTTP_URL.matcher(git).matches()) {
            throw new IllegalArgumentException("git must be an https:// URL without user info (credentials: names "
                    + "the secret; http:// only where assistant.sources.allow-http is true), or "
                    + "ssh://[user@]host[:port]/path or user@host:path with sshKey");
        } else if (git != null && (sshKey != null || knownHosts != null)) {
            throw new IllegalArgumentException("sshKey and knownHosts are for SSH git URLs");
        }
        if (site != null && !HTTP_URL.matcher(site).matches()) {
            throw new IllegalArgumentException("site must be an https:// URL without user info (http:// only where "
                    + "assistant.sources.allow-http is true)");
        }
        if (refresh != null) {
            duration(refresh); // fails now, not at the first sync
        }
        if (webhookSecret != null && webhookSecret.equals(gitlabToken)) {
            throw new IllegalArgumentException("webhookSecret (GitHub's) and gitlabToken must name different secrets");
        }
        for (String secret : new String[] {credentials, webhookSecret, gitlabToken}) {
            if (secret != null && !isFile(secret) && !VARIABLE.matcher(secret).matches()) {
                // a token pasted in place of its name would be logged and reported: refused, never quoted
                throw new IllegalArgumentException("credentials, webhookSecret and gitlabToken name a secret, never hold it: an "
                        + "environment variable (capitals, digits and _) or a file (a name with a slash)");
            }
        }
    }

    /** {@code docs: ./folder} or {@code docs: classpath:…}. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static DocsSource folder(String folder) {
        return new DocsSource(folder, null, null, null, null, null, null, null, null, null, null);
    }

    public boolean isFolder() {
        return folder != null;
    }

    /** Whether {@code git} is reached over SSH (with {@code sshKey} and {@code knownHosts}). */
    public boolean isSsh() {
        return git != null && SSH_URL.matcher(git).matches();
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

    /**
     * The same source with its folder, secret files ({@link #isFile}), {@code sshKey} and {@code knownHosts} resolved
     * against the tenants file's; an SSH key or known_hosts file that cannot be read fails the load, not a sync.
     */
    DocsSource resolved(UnaryOperator<String> file) {
        return new DocsSource(folder == null ? null : file.apply(folder), git, ref, path,
                isFile(credentials) ? file.apply(credentials) : credentials, site, refresh,
                isFile(webhookSecret) ? file.apply(webhookSecret) : webhookSecret,
                readableFile("sshKey", sshKey, file), readableFile("knownHosts", knownHosts, file),
                isFile(gitlabToken) ? file.apply(gitlabToken) : gitlabToken);
    }

    /**
     * {@code name} resolved, when it names a readable file; null for null. The error quotes the name unless it looks
     * like key material pasted in place of a file name (a line break or a PEM header), which is never echoed.
     */
    private static String readableFile(String option, String name, UnaryOperator<String> file) {
        if (name == null) {
            return null;
        }
        if (name.contains("\n") || name.contains("-----")) {
            throw new IllegalArgumentException(option + " must name a file, not hold the key or host keys");
        }
        String resolved;
        boolean readable;
        try {
            resolved = file.apply(name);
            readable = Files.isRegularFile(Path.of(resolved)) && Files.isReadable(Path.of(resolved));
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(option + " is not a file name");
        }
        if (!readable) {
            throw new IllegalArgumentException(option + " '" + resolved + "' is not a readable file");
        }
        return resolved;
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
