package dev.docsassistant;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * A published docs site on loopback, built from the English guide pages of the fixture docs: either as Mintlify
 * publishes one ({@code /llms.txt} listing each page, each page's Markdown at {@code <page>.md}) or sitemap-only
 * (HTML pages with a title, navigation and headings, listed in {@code /sitemap.xml}). Both variants also list a page
 * that redirects to another host, one larger than the tests' page cap, and one {@code robots.txt} disallows; every
 * path asked for is recorded.
 */
public final class DocsSiteServer implements AutoCloseable {

    public static final int HUGE_BYTES = 200_000;

    private final HttpServer server;
    private final Map<String, Response> responses = new ConcurrentHashMap<>();
    private final List<String> requested = new CopyOnWriteArrayList<>();

    private record Response(int status, String type, String body, String location) {
    }

    /** @param llms whether the site publishes llms.txt and Markdown pages, else a sitemap and HTML pages */
    public DocsSiteServer(boolean llms) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
        Path guides = Path.of("src/test/resources/fixture-docs/guides");
        List<String> routes = new ArrayList<>();
        try (Stream<Path> files = Files.list(guides)) {
            for (Path file : files.sorted().toList()) {
                String route = "/guides/" + file.getFileName().toString().replaceAll("\\.mdx$", "");
                String markdown = Files.readString(file);
                routes.add(route);
                if (llms) {
                    responses.put(route + ".md", new Response(200, "text/markdown", markdown, null));
                } else {
                    responses.put(route, new Response(200, "text/html", html(markdown), null));
                }
            }
        }
        String huge = "---\ntitle: Huge\n---\n\n" + "The enormous page. ".repeat(HUGE_BYTES / 19);
        responses.put(llms ? "/guides/huge.md" : "/guides/huge", new Response(200, "text/markdown", huge, null));
        responses.put(llms ? "/guides/moved.md" : "/guides/moved",
                new Response(302, "text/plain", "", "http://localhost:" + port() + "/guides/install"));
        responses.put(llms ? "/private/secret.md" : "/private/secret",
                new Response(200, "text/markdown", "---\ntitle: Secret\n---\n\nThe aardvark code.\n", null));
        routes.addAll(List.of("/guides/huge", "/guides/moved", "/private/secret"));
        responses.put("/robots.txt", new Response(200, "text/plain",
                "User-agent: *\nDisallow: /private/\n", null));
        if (llms) {
            StringBuilder index = new StringBuilder("# Fixture docs\n\n## Guides\n\n");
            routes.forEach(route -> index.append("- [").append(route.substring(route.lastIndexOf('/') + 1))
                    .append("](").append(url(route)).append(".md)\n"));
            responses.put("/llms.txt", new Response(200, "text/plain", index.toString(), null));
        } else {
            StringBuilder sitemap = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
            routes.forEach(route -> sitemap.append("  <url><loc>").append(url(route)).append("</loc></url>\n"));
            responses.put("/sitemap.xml", new Response(200, "application/xml", sitemap.append("</urlset>\n")
                    .toString(), null));
        }
    }

    /** The page as a docs site renders it: a title, a navigation and footer around the page's HTML. */
    private static String html(String markdown) {
        String title = markdown.replaceAll("(?s)^---\\s*\\ntitle:\\s*\"?([^\"\\n]*)\"?.*", "$1");
        String body = markdown.replaceAll("(?s)^---.*?\\n---\\n", "");
        String content = HtmlRenderer.builder().build().render(Parser.builder().build().parse(body));
        return "<!doctype html><html><head><title>" + title + "</title><script>var nav = 'ignored';</script>"
                + "</head><body><nav><a href=\"/\">Home</a> Navigation menu kangaroo</nav><main><h1>" + title
                + "</h1>" + content + "</main><footer>Footer text</footer></body></html>";
    }

    /** Publishes one more HTML page, listed in the sitemap (of a sitemap-only site). */
    public void addHtmlPage(String route, String html) {
        responses.put(route, new Response(200, "text/html", html, null));
        String sitemap = responses.get("/sitemap.xml").body();
        responses.put("/sitemap.xml", new Response(200, "application/xml", sitemap.replace("</urlset>",
                "  <url><loc>" + url(route) + "</loc></url>\n</urlset>"), null));
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** Every path asked for, in order. */
    public List<String> requested() {
        return requested;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            requested.add(path);
            Response response = responses.get(path);
            if (response == null) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (response.location() != null) {
                exchange.getResponseHeaders().add("Location", response.location());
            }
            byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", response.type());
            exchange.sendResponseHeaders(response.status(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
