package dev.docsassistant.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.docsassistant.ground.Secrets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may ask about which documentation: the tenants file, or, when none is configured, the embedded demo tenant
 * that serves this project's own docs.
 * <p>
 * Keys are held only as SHA-256 digests: a presented key is hashed and looked up, so the comparison never runs over
 * the secret itself and takes the same time however much of a wrong key matches a real one.
 * <p>
 * The file is read again by {@link #reload()} (the tenants-reload route calls it every few seconds), so a revoked key
 * or a changed origin list takes effect without a restart. A broken edit is logged and the last good configuration
 * stays in force.
 */
public final class Tenants {

    private static final Logger LOG = LoggerFactory.getLogger(Tenants.class);
    private static final Map<String, DemoKeys> DEMO_KEYS = new ConcurrentHashMap<>();
    private static final Pattern DOMAIN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    /** A widget id: public, bounded, never shaped like a key (no {@value #ADMIN_KEY_PREFIX} prefix). */
    private static final Pattern WIDGET_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{3,99}");
    /** The demo tenant's widget id, which the {@code /demo} page embeds. */
    public static final String DEMO_WIDGET_ID = "demo-widget";
    private static final String HASHED = "sha256:";
    /**
     * Every admin key's prefix, Mintlify's (a key written in plain in the file must have it): secret scanners find
     * admin keys, and a message that quotes one is redacted like a public key.
     */
    public static final String ADMIN_KEY_PREFIX = "mint_";
    /** Mintlify's public (assistant) keys' prefix: a key that has it is never an admin key, whatever the file says. */
    public static final String NEVER_ADMIN_PREFIX = "mint_dsc_";

    /** One consistent configuration: a request sees either the old file or the new one, never a mix. */
    private record Snapshot(Map<String, TenantsFile.Organization> organizationsByKeyDigest,
                            Map<String, TenantsFile.Organization> organizationsByAdminKeyDigest,
                            Map<String, Tenant> tenantsByDomain,
                            Map<String, Tenant> tenantsByWidgetId) {
    }

    private final Path file;
    private final String keyPrefix;
    private volatile Snapshot current;
    /** Digest of the file content last read, good or broken, so an unchanged file is not parsed again. */
    private String contentDigest;
    /** Reloads that failed (unreadable, or invalid); and whether the file now on disk is not the one in force. */
    private final AtomicLong reloadFailures = new AtomicLong();
    private volatile boolean invalid;

    private Tenants(Path file, String keyPrefix, Snapshot snapshot) {
        this.file = file;
        this.keyPrefix = keyPrefix;
        this.current = snapshot;
    }

    /**
     * @param tenantsFile the YAML file, or empty for the demo tenant
     * @param demoKey     the demo tenant's key, or empty to generate one (printed at start-up)
     * @param keyPrefix   the prefix every assistant key carries
     */
    public static Tenants load(String tenantsFile, String demoKey, String keyPrefix) throws IOException {
        if (tenantsFile == null || tenantsFile.isBlank()) {
            return demo(demoKey, keyPrefix);
        }
        Path file = Path.of(tenantsFile);
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read tenants file " + file + ": " + e.getMessage(), e);
        }
        Tenants tenants = new Tenants(file, keyPrefix, parse(content, file, keyPrefix));
        tenants.contentDigest = Secrets.sha256(content);
        return tenants;
    }

    /**
     * Reads the tenants file again if its content changed. Safe to call often: an unchanged file costs one read.
     *
     * @return whether a new configuration is now in force
     */
    public synchronized boolean reload() {
        if (file == null) {
            return false;
        }
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            if (contentDigest != null) {
                LOG.error("Cannot read tenants file {} ({}); still serving the previous configuration", file, e);
                reloadFailures.incrementAndGet();
            }
            invalid = true;
            contentDigest = null;
            return false;
        }
        String digest = Secrets.sha256(content);
        if (digest.equals(contentDigest)) {
            return false;
        }
        contentDigest = digest;
        try {
            Snapshot next = parse(content, file, keyPrefix);
            current = next;
            invalid = false;
            LOG.info("Tenants file {} reloaded: {} domains, {} keys, {} admin keys", file,
                    next.tenantsByDomain().size(), next.organizationsByKeyDigest().size(),
                    next.organizationsByAdminKeyDigest().size());
            return true;
        } catch (IllegalArgumentException e) {
            LOG.error("Tenants file {} is invalid; still serving the previous configuration: {}", file,
                    e.getMessage());
            reloadFailures.incrementAndGet();
            invalid = true;
            return false;
        }
    }

    private static Snapshot parse(byte[] content, Path file, String keyPrefix) {
        ObjectMapper yaml = YAMLMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
        TenantsFile parsed;
        try {
            // read from a stream, Jackson's messages quote no excerpt of the file (a key or an sshKey pasted in it)
            parsed = yaml.readValue(new ByteArrayInputStream(content), TenantsFile.class);
        } catch (IOException e) {
            // Jackson may quote the offending value, which can be a key: never let one reach the log
            throw new IllegalArgumentException("Cannot read tenants file " + file + ": "
                    + Secrets.redact(Secrets.redact(e.getMessage(), keyPrefix), ADMIN_KEY_PREFIX), e);
        }
        return snapshot(parsed, file.toAbsolutePath().getParent());
    }

    static Tenants demo(String demoKey, String keyPrefix) {
        boolean chosen = demoKey != null && !demoKey.isBlank();
        // Once per process, prefix and key: Camel may create this bean twice while it loads the routes, and a second
        // random key would make the key announced first one that is refused, a second line announce it twice.
        DemoKeys keys = DEMO_KEYS.computeIfAbsent(keyPrefix + (chosen ? "\n" + demoKey : ""), ignored -> {
            if (chosen) { // the operator chose it: not logged, and no admin key that would have to be
                LOG.info("Demo tenant ready: POST /v1/assistant/demo/message with the key set in assistant.demo.key");
                return new DemoKeys(demoKey, List.of());
            }
            DemoKeys generated = new DemoKeys(keyPrefix + Secrets.token(18),
                    List.of(ADMIN_KEY_PREFIX + Secrets.token(18)));
            LOG.info("Demo tenant ready: POST /v1/assistant/demo/message with 'Authorization: Bearer {}'; the docs "
                    + "team's endpoints (/v1/admin/demo/threads, /gaps) with 'Authorization: Bearer {}'",
                    generated.key(), generated.adminKeys().get(0));
            return generated;
        });
        var domain = new TenantsFile.Domain("demo", DocsSource.folder("classpath:demo-docs"), "", null, null,
                List.of(), null, new TenantsFile.Widget(DEMO_WIDGET_ID, null));
        return new Tenants(null, keyPrefix, snapshot(new TenantsFile(List.of(new TenantsFile.Organization("demo",
                List.of(keys.key()), null, List.of(domain), null, null, null, null, keys.adminKeys(), null, null))),
                null));
    }

    /** The demo tenant's public key and its admin keys (one when generated, none when the operator set the key). */
    private record DemoKeys(String key, List<String> adminKeys) {
    }

    private static Snapshot snapshot(TenantsFile file, Path baseDir) {
        if (file == null || file.organizations() == null || file.organizations().isEmpty()) {
            throw new IllegalArgumentException("The tenants file must list at least one organization");
        }
        Map<String, TenantsFile.Organization> byKey = new HashMap<>();
        Map<String, TenantsFile.Organization> byAdminKey = new HashMap<>();
        Map<String, Tenant> byDomain = new LinkedHashMap<>();
        Map<String, Tenant> byWidget = new HashMap<>();
        for (TenantsFile.Organization organization : file.organizations()) {
            String where = "organization '" + organization.id() + "'";
            if (organization.id() == null || organization.id().isBlank()) {
                throw new IllegalArgumentException("Every organization needs an id");
            }
            if (organization.apiKeys() == null || organization.apiKeys().isEmpty()) {
                throw new IllegalArgumentException(where + " has no apiKeys");
            }
            if (organization.recordsRetentionDays() != null && organization.recordsRetentionDays() < 1) {
                throw new IllegalArgumentException(where + " has recordsRetentionDays below 1");
            }
            for (String key : organization.apiKeys()) {
                if (byKey.putIfAbsent(digest(key), organization) != null) {
                    throw new IllegalArgumentException(where + " repeats a key another organization already has");
                }
            }
            for (String key : organization.adminKeys() == null ? List.<String>of() : organization.adminKeys()) {
                if (!key.regionMatches(true, 0, HASHED, 0, HASHED.length()) && (!isAdminKeyShaped(key)
                        || key.length() < ADMIN_KEY_PREFIX.length() + 16)) {
                    throw new IllegalArgumentException(where + " has an admin key that is not " + ADMIN_KEY_PREFIX
                            + " (but not " + NEVER_ADMIN_PREFIX + ") and at least 16 more characters (or a sha256:"
                            + " hash)");
                }
                if (byAdminKey.putIfAbsent(digest(key), organization) != null) {
                    throw new IllegalArgumentException(where + " repeats an admin key another organization has");
                }
            }
            for (TenantsFile.Domain domain : organization.domains() == null
                    ? List.<TenantsFile.Domain>of() : organization.domains()) {
                if (!isDomainId(domain.id())) {
                    throw new IllegalArgumentException(where + " has a domain id that is not "
                            + DOMAIN_ID.pattern() + ": '" + domain.id() + "'");
                }
                if (domain.docs() == null) {
                    throw new IllegalArgumentException("domain '" + domain.id() + "' has no docs");
                }
                Tenant tenant;
                try {
                    DocsSource docs = domain.docs().resolved(name -> resolve(name, baseDir));
                    var resolved = new TenantsFile.Domain(domain.id(), docs,
                            domain.siteUrl() == null ? "" : domain.siteUrl().replaceAll("/+$", ""), domain.model(),
                            domain.systemPrompt() == null ? null : resolve(domain.systemPrompt(), baseDir),
                            domain.allowedOrigins() == null ? List.of() : domain.allowedOrigins(), domain.mcp(),
                            checked(domain.widget()));
                    tenant = new Tenant(organization, resolved);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("domain '" + domain.id() + "': " + e.getMessage(), e);
                }
                if (byDomain.putIfAbsent(domain.id(), tenant) != null) {
                    throw new IllegalArgumentException("domain '" + domain.id() + "' is listed twice");
                }
                if (domain.widget() != null && byWidget.putIfAbsent(domain.widget().id(), tenant) != null) {
                    throw new IllegalArgumentException("domain '" + domain.id() + "' repeats another's widget id");
                }
            }
        }
        for (String adminKey : byAdminKey.keySet()) { // a public key is in every docs page's source
            if (byKey.containsKey(adminKey)) {
                throw new IllegalArgumentException("organization '" + byAdminKey.get(adminKey).id()
                        + "' has an admin key that is also a public key");
            }
        }
        return new Snapshot(Map.copyOf(byKey), Map.copyOf(byAdminKey), byDomain, Map.copyOf(byWidget));
    }

    private static TenantsFile.Widget checked(TenantsFile.Widget widget) {
        if (widget == null) {
            return null;
        }
        if (widget.id() == null || !WIDGET_ID.matcher(widget.id()).matches()
                || widget.id().startsWith(ADMIN_KEY_PREFIX)) {
            throw new IllegalArgumentException("widget id must be " + WIDGET_ID.pattern() + ", not " + ADMIN_KEY_PREFIX
                    + "…");
        }
        String supportUrl = widget.supportUrl();
        if (supportUrl != null && !supportUrl.matches("(?i)https?://[^/?#@\\s]+([/?#]\\S*)?")) {
            throw new IllegalArgumentException("widget supportUrl must be an http(s) URL without credentials");
        }
        return widget;
    }

    /** The domain whose widget has this public id, or null. */
    public Tenant tenantForWidget(String widgetId) {
        return widgetId == null ? null : current.tenantsByWidgetId().get(widgetId);
    }

    /** Reloads of the file that failed (unreadable or invalid), since the start. */
    public long reloadFailures() {
        return reloadFailures.get();
    }

    /** Whether the file on disk could not be put in force (the previous configuration serves). */
    public boolean invalid() {
        return invalid;
    }

    /** The organization owning this key, or null. */
    public TenantsFile.Organization organizationForKey(String key) {
        return current.organizationsByKeyDigest().get(Secrets.sha256(key));
    }

    /** The organization whose admin key this is, or null (a public key is not one). */
    public TenantsFile.Organization organizationForAdminKey(String key) {
        return !isAdminKeyShaped(key) ? null : current.organizationsByAdminKeyDigest().get(Secrets.sha256(key));
    }

    /** Whether a key may be an admin key at all: {@value #ADMIN_KEY_PREFIX}…, never {@value #NEVER_ADMIN_PREFIX}…. */
    public static boolean isAdminKeyShaped(String key) {
        return key.startsWith(ADMIN_KEY_PREFIX) && !key.startsWith(NEVER_ADMIN_PREFIX);
    }

    /** Whether {@code domainId} could name a domain at all (bounded, no path characters). */
    public static boolean isDomainId(String domainId) {
        return domainId != null && DOMAIN_ID.matcher(domainId).matches();
    }

    /** The domain with this id, or null. */
    public Tenant tenant(String domainId) {
        return current.tenantsByDomain().get(domainId);
    }

    public Collection<Tenant> tenants() {
        return current.tenantsByDomain().values();
    }

    private static String resolve(String docs, Path baseDir) {
        if (docs.startsWith("classpath:") || baseDir == null) {
            return docs;
        }
        return baseDir.resolve(docs).normalize().toString();
    }

    private static String digest(String configuredKey) {
        if (configuredKey.regionMatches(true, 0, HASHED, 0, HASHED.length())) {
            return configuredKey.substring(HASHED.length()).toLowerCase(Locale.ROOT);
        }
        return Secrets.sha256(configuredKey);
    }
}
