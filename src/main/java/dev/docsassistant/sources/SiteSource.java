package dev.docsassistant.sources;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.docsassistant.config.DocsSource;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.util.Timeout;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A domain's docs from a published site. Its {@code /llms.txt} lists the pages, each fetched as Markdown
 * ({@code <page>.md}); a site without one is read from {@code /sitemap.xml}, each page's HTML turned into Markdown
 * by jsoup (title kept, headings kept as sections, navigation, scripts and styles dropped). Each page is written as
 * {@code <its path>.md} with its title in the frontmatter, so its route is its path on the site and answers link
 * to it.
 * <p>
 * The site is read as a stranger's: only its own host (a redirect elsewhere is refused), only what its
 * {@code robots.txt} allows, one request at a time with a pause between them, each with a timeout and bounded bytes,
 * its whole body included (a body that trickles is cut off at the timeout), a bounded number of pages, requests and
 * failed pages, the whole sync within its deadline ({@link SyncDeadline}); and never on a loopback, link-local or private address (the address
 * checked is the one connected to, so DNS rebinding cannot pass) unless the operator allows it
 * ({@code assistant.sources.allow-private-addresses}), so a tenants file cannot make the service probe its own
 * network.
 */
final class SiteSource {

    private static final Logger LOG = LoggerFactory.getLogger(SiteSource.class);
    private static final String AGENT = "docs-assistant";
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)]\\(([^)\\s]+)\\)");
    private static final int MAX_REDIRECTS = 5;
    private static final Pattern MARKUP = Pattern.compile("[\\\\`<>{}\\[\\]&]");

    private final DocsSource source;
    private final SourceLimits limits;
    private final SyncDeadline deadline;
    private final URI base;
    private final CloseableHttpClient http;
    private final Robots robots;
    private long bytes;
    private long lastRequest;
    private int requests;
    private int failures;

    private SiteSource(DocsSource source, SourceLimits limits, SyncDeadline deadline, CloseableHttpClient http)
            throws IOException {
        this.source = source;
        this.limits = limits;
        this.deadline = deadline;
        this.base = URI.create(source.site().replaceAll("/+$", "") + "/");
        this.http = http;
        String robotsTxt = fetchText(base.resolve("/robots.txt"), false);
        this.robots = new Robots(robotsTxt == null ? "" : robotsTxt);
    }

    /** The site's pages, or null when they are byte for byte those of {@code previousRevision}. */
    static Snapshot sync(String domain, DocsSource source, Path home, SourceLimits limits, SyncDeadline deadline,
            String previousRevision) throws IOException {
        long started = System.nanoTime();
        SiteSource site;
        Map<String, String> pages;
        try (CloseableHttpClient http = client(limits)) {
            site = new SiteSource(source, limits, deadline, http);
            pages = site.pages(domain);
        }
        if (pages.isEmpty()) {
            throw new SyncException(source + " lists no page this service may read (llms.txt, sitemap.xml)");
        }
        String revision = digest(pages);
        if (revision.equals(previousRevision)) {
            return null;
        }
        Path snapshot = home.resolve("site-" + revision.substring(0, 16));
        GitSource.deleteTree(snapshot);
        for (Map.Entry<String, String> page : pages.entrySet()) {
            Path file = snapshot.resolve(page.getKey().substring(1) + ".md").normalize();
            if (file.startsWith(snapshot)) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, page.getValue(), StandardCharsets.UTF_8);
            }
        }
        try (var others = Files.list(home)) {
            for (Path other : (Iterable<Path>) others::iterator) {
                if (other.getFileName().toString().startsWith("site-") && !other.equals(snapshot)) {
                    GitSource.deleteTree(other);
                }
            }
        }
        LOG.info("Fetched docs of domain '{}' from {}: {} pages, {} bytes in {} ms", domain, source, pages.size(),
                site.bytes, (System.nanoTime() - started) / 1_000_000);
        return new Snapshot(snapshot, revision);
    }

    /** Each page's route and Markdown (with its title in the frontmatter), from llms.txt, else the sitemap. */
    private Map<String, String> pages(String domain) throws IOException {
        Map<String, String> pages = new LinkedHashMap<>();
        String llms = fetchText(base.resolve("llms.txt"), false);
        if (llms != null) {
            Matcher links = LINK.matcher(llms);
            while (links.find() && pages.size() < limits.maxFiles()) {
                URI page = page(links.group(2));
                if (page != null) {
                    URI markdown = page.getPath().endsWith(".md") ? page : URI.create(page + ".md");
                    String text = fetchText(markdown, true);
                    if (text != null) {
                        pages.putIfAbsent(route(page), withTitle(text, links.group(1)));
                        progress(domain, pages.size());
                    }
                }
            }
            return pages;
        }
        String sitemap = fetchText(base.resolve("sitemap.xml"), false);
        if (sitemap == null) {
            throw new SyncException(source + " has neither /llms.txt nor /sitemap.xml");
        }
        for (Element loc : Jsoup.parse(sitemap, "", Parser.xmlParser()).select("url > loc")) {
            if (pages.size() >= limits.maxFiles()) {
                break;
            }
            URI page = page(loc.text().strip());
            if (page != null) {
                String html = fetchText(page, true);
                if (html != null) {
                    pages.putIfAbsent(route(page), markdown(Jsoup.parse(html, page.toString())));
                    progress(domain, pages.size());
                }
            }
        }
        return pages;
    }

    private static void progress(String domain, int fetched) {
        if (fetched % 100 == 0) {
            LOG.info("Fetching docs of domain '{}': {} pages so far", domain, fetched);
        }
    }

    /** A listed link as a page of this site, or null for another host's or one robots.txt disallows. */
    private URI page(String link) {
        URI uri;
        try {
            uri = base.resolve(link.strip());
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (!sameSite(uri) || !robots.allows(uri.getPath())) {
            return null;
        }
        return URI.create(uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath());
    }

    private boolean sameSite(URI uri) {
        return uri.getScheme() != null && uri.getScheme().equalsIgnoreCase(base.getScheme())
                && base.getHost().equalsIgnoreCase(uri.getHost()) && base.getPort() == uri.getPort();
    }

    /** {@code https://site/docs/a/b.md} → {@code /docs/a/b} (the path the page has on the site). */
    private static String route(URI page) {
        String path = page.getPath().replaceAll("\\.(md|html?)$", "").replaceAll("/+$", "");
        path = path.replaceAll("[^A-Za-z0-9/_.~-]", "-").replaceAll("/\\.+(?=/|$)", "/-");
        return path.isEmpty() ? "/index" : path;
    }

    /** Markdown with the link's title in its frontmatter unless it has one. */
    private static String withTitle(String markdown, String title) {
        if (markdown.startsWith("---\n") || title.isBlank()) {
            return markdown;
        }
        return "---\ntitle: " + yamlString(title) + "\n---\n\n" + markdown;
    }

    /** An HTML page's main content as Markdown: its title, its headings (sections) and the text under them. */
    static String markdown(Document html) {
        Element found = html.selectFirst("main, article, [role=main]");
        Element main = found == null ? html.body() : found;
        main.select("script, style, nav, header, footer, aside, noscript, svg, form").remove();
        String title = html.title().isBlank() ? textOf(main.selectFirst("h1")) : html.title().strip();
        StringBuilder out = new StringBuilder("---\ntitle: ").append(yamlString(title)).append("\n---\n\n");
        for (Element block : main.select("h1, h2, h3, h4, h5, h6, p, li, pre, td, blockquote, dt, dd")) {
            if (block.parents().stream().anyMatch(p -> p.is("p, li, pre, td, blockquote, dd") && main != p)) {
                continue; // written with the block that holds it
            }
            // the page's text as text: what would be markup in Markdown or MDX (escaped in its HTML) stays escaped
            String text = block.is("pre") ? block.wholeText().strip()
                    : MARKUP.matcher(block.text().strip()).replaceAll("\\\\$0");
            if (text.isEmpty()) {
                continue;
            }
            if (block.is("h1, h2, h3, h4, h5, h6")) {
                int level = block.tagName().charAt(1) - '0';
                out.append("#".repeat(Math.max(2, level))).append(' ').append(text).append("\n\n");
            } else if (block.is("pre")) {
                out.append("```\n").append(text).append("\n```\n\n");
            } else {
                out.append(block.is("li") ? "- " : "").append(text).append("\n\n");
            }
        }
        return out.toString();
    }

    private static String textOf(Element element) {
        return element == null ? "" : element.text().strip();
    }

    private static String yamlString(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replaceAll("[\\r\\n]+", " ") + "\"";
    }

    /**
     * A resource's text, following redirects on the site's host only; null for a 4xx (absent) or, when
     * {@code page}, for a page refused or failed (logged), so one bad page costs only itself.
     *
     * @throws SyncException the site itself cannot be read (its index on a refused address, a 5xx, a timeout)
     */
    private String fetchText(URI uri, boolean page) throws IOException {
        String text;
        try {
            text = fetch(uri);
        } catch (PageRefusedException e) {
            if (!page) {
                throw e;
            }
            LOG.warn("Page {} of {} left out: {}", uri.getPath(), source, e.getMessage());
            text = null;
        }
        if (text == null && page && ++failures > limits.maxFailures()) {
            throw new SyncException("more than " + limits.maxFailures() + " pages of " + source
                    + " could not be read (assistant.sources.max-failures)");
        }
        return text;
    }

    /** One page refused or failed: it costs only itself (and counts towards {@code max-failures}). */
    private static final class PageRefusedException extends SyncException {

        PageRefusedException(String message) {
            super(message);
        }

        /** {@code cause} is kept so a site that cannot be reached is told from docs at fault. */
        PageRefusedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private String fetch(URI start) throws IOException {
        URI uri = start;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            deadline.check();
            if (++requests > limits.maxRequests()) {
                throw new SyncException("a sync of " + source + " takes more than " + limits.maxRequests()
                        + " requests (assistant.sources.max-requests)");
            }
            pause();
            Duration wait = deadline.bound(limits.timeout());
            HttpGet request = new HttpGet(uri);
            request.setHeader("Accept", "text/markdown, text/html, text/plain, */*");
            request.setConfig(RequestConfig.custom().setResponseTimeout(Timeout.of(wait)).build());
            // headers and the whole body within the wait: a body that trickles is cut off by aborting its connection
            CompletableFuture<Void> cutOff = CompletableFuture.runAsync(request::cancel,
                    CompletableFuture.delayedExecutor(wait.toNanos(), TimeUnit.NANOSECONDS));
            try (ClassicHttpResponse response = http.executeOpen(null, request, null)) {
                int status = response.getCode();
                if (status >= 300 && status < 400) {
                    Header location = response.getFirstHeader("Location");
                    URI next = uri.resolve(location == null ? "" : location.getValue());
                    if (!sameSite(next)) {
                        throw new PageRefusedException("redirect from " + uri.getPath() + " to another host refused");
                    }
                    uri = next;
                    continue;
                }
                if (status >= 400 && status < 500) {
                    return null;
                }
                if (status != 200) {
                    throw new PageRefusedException(uri.getPath() + " answered " + status);
                }
                return text(uri, response.getEntity());
            } catch (UnknownHostException e) { // our resolver's refusal, or the host is unknown
                throw new PageRefusedException(e.getMessage(), e);
            } catch (IOException e) {
                if (e instanceof SyncException) {
                    throw e;
                }
                if (request.isCancelled() || e instanceof SocketTimeoutException) {
                    throw new PageRefusedException(uri.getPath() + " was not read in full within " + wait.toMillis()
                            + " ms (assistant.sources.timeout-seconds)", e);
                }
                throw new PageRefusedException("cannot fetch " + uri.getPath() + ": " + e.getClass().getSimpleName(),
                        e);
            } finally {
                cutOff.cancel(false);
            }
        }
        throw new PageRefusedException("more than " + MAX_REDIRECTS + " redirects from " + start.getPath());
    }

    /** A 200's body, read up to one byte past the page cap and no further (the connection is then dropped). */
    private String text(URI uri, HttpEntity entity) throws IOException {
        byte[] read;
        try (InputStream body = entity == null ? InputStream.nullInputStream() : entity.getContent()) {
            read = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limits.maxFileBytes() + 1));
        }
        if (read.length > limits.maxFileBytes()) {
            throw new PageRefusedException(uri.getPath() + " is larger than " + limits.maxFileBytes()
                    + " bytes (assistant.sources.max-file-bytes)");
        }
        bytes += read.length;
        if (bytes > limits.maxSiteBytes()) {
            throw new SyncException(source + " is larger than " + limits.maxSiteBytes()
                    + " bytes (assistant.sources.max-site-bytes)");
        }
        return new String(read, StandardCharsets.UTF_8);
    }

    /**
     * The site's client: it connects only to the addresses {@link PrivateAddresses#resolve} resolved and checked, in
     * the one lookup of each connection, so the checked address is the connected one; TLS still checks the host name.
     */
    private static CloseableHttpClient client(SourceLimits limits) {
        DnsResolver checked = new SystemDefaultDnsResolver() {
            @Override
            public InetAddress[] resolve(String host) throws UnknownHostException {
                if (limits.allowPrivate()) {
                    return super.resolve(host);
                }
                try {
                    return PrivateAddresses.resolve(host);
                } catch (SyncException e) {
                    throw new UnknownHostException(e.getMessage());
                }
            }
        };
        return HttpClients.custom().setUserAgent(AGENT).disableRedirectHandling().disableAutomaticRetries()
                .disableCookieManagement().disableContentCompression()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create().setDnsResolver(checked)
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.of(limits.timeout())).build())
                        .build())
                .build();
    }

    /** At most one request per {@code requestDelay}: the site is someone's server, not a benchmark. */
    private void pause() throws SyncException {
        long wait = lastRequest + limits.requestDelay().toNanos() - System.nanoTime();
        if (lastRequest != 0 && wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SyncException("interrupted");
            }
        }
        lastRequest = System.nanoTime();
    }

    private static String digest(Map<String, String> pages) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            pages.forEach((route, text) -> {
                sha.update(route.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
                sha.update(text.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            });
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** robots.txt's rules for us: the group naming {@value #AGENT}, else {@code *}; the longest match wins. */
    static final class Robots {

        private final Map<String, Boolean> rules = new LinkedHashMap<>();

        Robots(String text) {
            Map<String, Boolean> any = new LinkedHashMap<>();
            Map<String, Boolean> ours = new LinkedHashMap<>();
            Map<String, Boolean> current = null;
            boolean inAgents = false;
            for (String raw : text.split("\\R")) {
                String line = raw.replaceAll("#.*", "").strip();
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String field = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
                String value = line.substring(colon + 1).strip();
                if (field.equals("user-agent")) {
                    if (!inAgents) {
                        current = new LinkedHashMap<>();
                    }
                    inAgents = true;
                    if (value.equals("*")) {
                        any = current;
                    } else if (value.toLowerCase(Locale.ROOT).startsWith(AGENT)) {
                        ours = current;
                    }
                } else if ((field.equals("allow") || field.equals("disallow")) && current != null) {
                    inAgents = false;
                    if (!value.isEmpty()) {
                        current.put(value, field.equals("allow"));
                    }
                }
            }
            rules.putAll(ours.isEmpty() ? any : ours);
        }

        boolean allows(String path) {
            String best = "";
            boolean allowed = true;
            for (Map.Entry<String, Boolean> rule : rules.entrySet()) {
                String prefix = rule.getKey().replaceAll("\\*$", "").replace("$", "");
                if (path.startsWith(prefix) && prefix.length() >= best.length()) {
                    best = prefix;
                    allowed = rule.getValue();
                }
            }
            return allowed;
        }
    }
}
