package dev.docsassistant.agents;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.search.DomainIndex;
import dev.docsassistant.search.DomainIndexes;
import dev.docsassistant.search.Navigation;
import dev.docsassistant.search.Page;
import dev.docsassistant.search.PageNotFoundException;
import dev.docsassistant.search.PageParser;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.support.ExpressionAdapter;

/**
 * The files a docs site serves agents at its root, here under {@code /sites/{domain}/}: {@code llms.txt} (llmstxt.org:
 * the site's name, its summary, a section per navigation group of {@code - [Title](url.md): description} links),
 * {@code llms-full.txt} (every listed page's Markdown), each page's Markdown ({@code <path>.md}, or its path with
 * {@code Accept: text/markdown}), and the MCP server's discovery document. Pages are those Mintlify lists in
 * llms.txt ({@link DomainIndex#listed}): public ones, of the default language and version, in navigation order,
 * then the pages outside the navigation in path order. Every response advertises llms.txt as Mintlify does
 * ({@code Link}, {@code X-Llms-Txt}). Links are absolute on the domain's {@code siteUrl}, where a proxy publishes
 * {@code /sites/{domain}/}; on a domain without one they are this service's paths.
 */
public class SiteFiles {

    /** Mintlify keeps a description's first paragraph, cut at this many characters. */
    static final int DESCRIPTION_CHARS = 300;

    private final DomainIndexes indexes;
    /**
     * llms.txt and llms-full.txt by domain and file, made once per build of the domain's index (its generation: the
     * index itself is not held, so a replaced one is freed).
     */
    private final Map<String, Built> built = new ConcurrentHashMap<>();

    private record Built(long generation, byte[] body) {
    }

    public SiteFiles(DomainIndexes indexes) {
        this.indexes = indexes;
    }

    /** agents.yaml's {@code llms.txt} ({@code setBody: ref: llmsTxt}). */
    public static Expression llmsTxt(SiteFiles files) {
        return body(exchange -> files.cached(exchange, "llms.txt", files::llmsTxt));
    }

    /** agents.yaml's {@code llms-full.txt}. */
    public static Expression llmsFullTxt(SiteFiles files) {
        return body(exchange -> files.cached(exchange, "llms-full.txt", files::llmsFullTxt));
    }

    /** agents.yaml's page as Markdown: the request's path after {@code /sites/{domain}}, {@code .md} or not. */
    public static Expression page(SiteFiles files) {
        return body(files::pageMarkdown);
    }

    /** agents.yaml's {@code /.well-known/mcp}: where the MCP server is, as Mintlify describes it. */
    public static Expression mcpDiscovery(SiteFiles files) {
        return body(exchange -> files.discovery(tenant(exchange)));
    }

    private static Expression body(Function<Exchange, Object> answer) {
        return new ExpressionAdapter() {
            @Override
            public Object evaluate(Exchange exchange) {
                return answer.apply(exchange);
            }
        };
    }

    /** A page as Markdown: its title, its description as a summary, then its source with MDX reduced to text. */
    public static String markdown(Page page) {
        StringBuilder out = new StringBuilder("# ").append(page.markdownTitle()).append("\n\n");
        if (!page.description().isBlank()) {
            out.append("> ").append(page.description().strip().replace("\n", "\n> ")).append("\n\n");
        }
        return out.append(PageParser.markdown(page.content())).append('\n').toString();
    }

    /** The address of a page for an agent: on the site, or its Markdown here when the domain names no site. */
    public static String pageUrl(Tenant tenant, String path) {
        String site = tenant.domain().siteUrl();
        return site == null || site.isEmpty() ? markdownUrl(tenant, path) : site + (path.equals("/") ? "" : path);
    }

    /** The address of a page's Markdown ({@code /} is {@code /index.md}). */
    static String markdownUrl(Tenant tenant, String path) {
        return base(tenant) + (path.equals("/") ? "/index" : path) + ".md";
    }

    /** Where {@code /sites/{domain}/} is published: the domain's {@code siteUrl}, else this service's path. */
    static String base(Tenant tenant) {
        String site = tenant.domain().siteUrl();
        return site == null || site.isEmpty() ? "/sites/" + tenant.domainId() : site;
    }

    private byte[] cached(Exchange exchange, String file, Function<Context, String> make) {
        Tenant tenant = tenant(exchange);
        advertise(exchange, tenant);
        DomainIndex index = indexes.index(tenant.domainId());
        // compute: readers asking at once for a file not made yet wait for one making, not make one each
        return built.compute(tenant.domainId() + "/" + file, (key, current) -> current != null
                && current.generation() == index.generation() ? current : new Built(index.generation(),
                make.apply(new Context(tenant, index)).getBytes(StandardCharsets.UTF_8))).body();
    }

    private record Context(Tenant tenant, DomainIndex index) {
    }

    private String llmsTxt(Context site) {
        Navigation navigation = site.index().navigation();
        StringBuilder out = new StringBuilder("# ").append(siteName(site)).append("\n\n");
        if (!navigation.description().isBlank()) {
            out.append("> ").append(navigation.description().replace("\n", " ")).append("\n\n");
        }
        for (Map.Entry<String, List<Page>> group : sections(site.index()).entrySet()) {
            out.append("## ").append(group.getKey()).append("\n\n");
            for (Page page : group.getValue()) {
                out.append("- [").append(page.title().replace("]", "\\]")).append("](")
                        .append(markdownUrl(site.tenant(), page.path())).append(')');
                String description = description(page);
                if (!description.isEmpty()) {
                    out.append(": ").append(description);
                }
                out.append('\n');
            }
            out.append('\n');
        }
        return out.toString().strip() + "\n";
    }

    private String llmsFullTxt(Context site) {
        StringBuilder out = new StringBuilder();
        for (List<Page> pages : sections(site.index()).values()) {
            for (Page page : pages) {
                String markdown = markdown(page);
                int titleEnd = markdown.indexOf('\n');
                out.append(markdown, 0, titleEnd).append("\nSource: ").append(pageUrl(site.tenant(), page.path()))
                        .append(markdown, titleEnd, markdown.length()).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * The listed pages of the default language and version by llms.txt section, in navigation order: a section is
     * the page's group (its breadcrumb's last label; {@code Docs} for a page outside any), and the pages outside
     * the navigation come last, under {@code Other pages}.
     */
    private static Map<String, List<Page>> sections(DomainIndex index) {
        Navigation navigation = index.navigation();
        Map<String, Page> listed = new LinkedHashMap<>();
        index.listed(List.of()).stream()
                .filter(page -> page.language().equals(navigation.defaultLanguage())
                        && page.version().equals(navigation.defaultVersion()))
                .forEach(page -> listed.put(page.path(), page));
        Map<String, List<Page>> sections = new LinkedHashMap<>();
        for (String route : navigation.routes()) {
            Page page = listed.remove(route);
            if (page != null) {
                String group = page.breadcrumb().isEmpty() ? "Docs" : page.breadcrumb().get(page.breadcrumb().size() - 1);
                sections.computeIfAbsent(group, name -> new ArrayList<>()).add(page);
            }
        }
        if (!listed.isEmpty()) {
            sections.computeIfAbsent("Other pages", name -> new ArrayList<>()).addAll(listed.values());
        }
        return sections;
    }

    private static String siteName(Context site) {
        String name = site.index().navigation().name();
        return name.isBlank() ? site.tenant().domainId() : name;
    }

    /** The description's first paragraph on one line, cut at {@value #DESCRIPTION_CHARS} characters. */
    static String description(Page page) {
        String first = page.description().strip().split("\\n\\s*\\n", 2)[0].replaceAll("\\s+", " ");
        return first.length() <= DESCRIPTION_CHARS ? first : first.substring(0, DESCRIPTION_CHARS - 1).strip() + "…";
    }

    private String pageMarkdown(Exchange exchange) {
        Tenant tenant = tenant(exchange);
        advertise(exchange, tenant);
        String prefix = "/sites/" + tenant.domainId();
        String path = Objects.requireNonNullElse(exchange.getMessage().getHeader(Exchange.HTTP_PATH, String.class), "");
        int at = path.indexOf(prefix);
        String route = at < 0 ? path : path.substring(at + prefix.length());
        if (route.endsWith(".md")) {
            route = route.substring(0, route.length() - ".md".length());
        }
        if (route.equals("/mcp")) {
            ResponseHeaders.set(exchange, "Allow", "POST");
            throw new McpMethodNotAllowedException();
        }
        String asked = route.isEmpty() ? "/" : route;
        Page page = indexes.index(tenant.domainId()).listedPage(asked, List.of())
                .orElseThrow(() -> new PageNotFoundException(asked));
        ResponseHeaders.set(exchange, "Vary", "Accept");
        return markdown(page);
    }

    private Map<String, Object> discovery(Tenant tenant) {
        String url = base(tenant) + "/mcp";
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("name", "public");
        server.put("url", url);
        server.put("transport", "http");
        server.put("authentication", "none");
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("version", "1.0.0");
        document.put("transport", "http");
        document.put("url", url);
        document.put("servers", List.of(server));
        return document;
    }

    /** Mintlify's headers on every page response, for agents to find llms.txt. */
    private static void advertise(Exchange exchange, Tenant tenant) {
        String base = base(tenant);
        ResponseHeaders.set(exchange, "Link", "<" + base + "/llms.txt>; rel=\"llms-txt\", <" + base
                + "/llms-full.txt>; rel=\"llms-full-txt\"");
        ResponseHeaders.set(exchange, "X-Llms-Txt", base + "/llms.txt");
    }

    private static Tenant tenant(Exchange exchange) {
        return exchange.getProperty(StepContract.TENANT, Tenant.class);
    }
}
