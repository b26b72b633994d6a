package dev.docsassistant.analytics;

import dev.docsassistant.ground.ClasspathText;
import dev.docsassistant.ground.ResponseHeaders;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code GET /dashboard/{domain}}: the docs team's dashboard, one HTML page with uPlot (from its WebJar) inlined, so
 * it loads nothing from elsewhere. The page holds no data and needs no key: it asks for the organization's admin key,
 * keeps it in the tab's session storage and fetches {@code /v1/analytics/{domain}/dashboard} with it. Its Content
 * Security Policy lets it connect to this service only, and it writes what it fetched as text, never as markup.
 */
public class DashboardPage implements Processor {

    private static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
    static final String POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            + "connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'";

    private final String page;

    public DashboardPage() {
        page = ClasspathText.read("dashboard/index.html")
                .replace("/*uPlot.css*/", ClasspathText.read(UPLOT + "uPlot.min.css"))
                .replace("/*uPlot.js*/", ClasspathText.read(UPLOT + "uPlot.iife.min.js"))
                .replace("/*marked.js*/", ClasspathText.read("META-INF/resources/webjars/marked/15.0.12/marked.min.js"))
                .replace("/*purify.js*/",
                        ClasspathText.read("META-INF/resources/webjars/dompurify/3.2.6/dist/purify.min.js"));
    }


    @Override
    public void process(Exchange exchange) {
        exchange.getMessage().removeHeaders("*");
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 200);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "text/html; charset=utf-8");
        ResponseHeaders.cacheControl(exchange, "no-store");
        exchange.getMessage().setHeader("Content-Security-Policy", POLICY);
        exchange.getMessage().setHeader("X-Content-Type-Options", "nosniff");
        exchange.getMessage().setBody(page);
    }
}
