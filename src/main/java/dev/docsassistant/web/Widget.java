package dev.docsassistant.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.Tenants;
import dev.docsassistant.ground.ClasspathText;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.Secrets;
import dev.docsassistant.ground.StepContract;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;

/**
 * The hosted widget, a drop-in for Mintlify's: {@code GET /widget.js}, a small loader defining
 * {@code window.MintlifyAssistant}, which loads the runtime from a versioned URL ({@code /widget/<version>.js},
 * cacheable for a year) on {@code init()}; {@code GET /v1/widget/config}, what the runtime needs to know about its
 * widget id's domain; {@code GET /demo}, a page with the demo tenant's widget on it. The runtime is the panel's own
 * script with marked (Markdown) and DOMPurify (sanitizer) from their WebJars, each in a scope of its own so the host
 * page's globals are left alone. Everything is built once, in memory, gzipped once; {@code ETag}s are the content's
 * digest.
 */
public class Widget {

    private static final String MARKED = "META-INF/resources/webjars/marked/15.0.12/marked.min.js";
    private static final String PURIFY = "META-INF/resources/webjars/dompurify/3.2.6/dist/purify.min.js";
    /** The loader's URL never changes, so its cache is short; the runtime's URL changes with its content. */
    private static final String LOADER_CACHE = "public, max-age=300";
    private static final String RUNTIME_CACHE = "public, max-age=31536000, immutable";

    private final Asset runtime;
    private final Asset loader;
    private final Asset demo;
    private final String version;

    public Widget() {
        String code = "(()=>{\"use strict\";const DOMPurify=" + module(ClasspathText.read(PURIFY)) + ";const marked="
                + module(ClasspathText.read(MARKED)) + ";\n" + ClasspathText.read("widget/runtime.js") + "\n})();\n";
        runtime = new Asset(code, "text/javascript; charset=utf-8");
        version = runtime.etag.substring(1, 13);
        loader = new Asset(ClasspathText.read("widget/loader.js")
                .replace("__RUNTIME__", "/widget/" + version + ".js"), "text/javascript; charset=utf-8");
        demo = new Asset(ClasspathText.read("widget/demo.html")
                .replace("__WIDGET_ID__", Tenants.DEMO_WIDGET_ID), "text/html; charset=utf-8");
    }

    /** A UMD bundle evaluated in a scope of its own: it exports through a local module, never a global. */
    private static String module(String umd) {
        return "(function(){var module={exports:{}},exports=module.exports,define;" + umd
                + "\nreturn module.exports})()";
    }

    /**
     * widget.yaml's steps as processors, bound by name in step-beans.yaml, so no request calls a bean by reflection
     * (RequestStepsTest).
     */
    public static Processor step(Widget widget, String name) {
        return switch (name) {
            case "loader" -> widget::loader;
            case "runtime" -> widget::runtime;
            case "demo" -> widget::demo;
            case "config" -> exchange -> exchange.getMessage().setBody(widget.config(exchange));
            default -> throw new IllegalArgumentException("no widget step '" + name + "'");
        };
    }

    /** {@code GET /widget.js}. */
    public void loader(Exchange exchange) {
        loader.send(exchange, LOADER_CACHE);
    }

    /** {@code GET /widget/{version}.js}: the current version only; another is 404 (an old page reloads the loader). */
    public void runtime(Exchange exchange) {
        if (!(version + ".js").equals(exchange.getMessage().getHeader("file", String.class))) {
            throw new EndpointNotFoundException();
        }
        runtime.send(exchange, RUNTIME_CACHE);
    }

    /** {@code GET /demo}. */
    public void demo(Exchange exchange) {
        demo.send(exchange, "no-cache");
        exchange.getMessage().setHeader("Content-Security-Policy", "default-src 'none'; script-src 'self' "
                + "'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; "
                + "form-action 'none'; frame-ancestors 'none'");
    }

    /**
     * {@code GET /v1/widget/config}, after admission with the widget id: the domain the widget asks about, where its
     * sources link to and where "Contact support" goes. Nothing else about the tenant.
     */
    public Map<String, Object> config(Exchange exchange) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("domain", tenant.domainId());
        config.put("siteUrl", tenant.domain().siteUrl());
        config.put("supportUrl", tenant.domain().widget() == null ? null : tenant.domain().widget().supportUrl());
        config.put("version", version);
        return config;
    }


    /** A file served from memory: its bytes, gzipped once, and its strong ETag. */
    private static final class Asset {
        final byte[] plain;
        final byte[] gzip;
        final String etag;
        final String contentType;

        Asset(String content, String contentType) {
            plain = content.getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
                zip.write(plain);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            gzip = out.toByteArray();
            etag = "\"" + Secrets.sha256(content).substring(0, 32) + "\"";
            this.contentType = contentType;
        }

        void send(Exchange exchange, String cacheControl) {
            Message message = exchange.getMessage();
            String ifNoneMatch = message.getHeader("If-None-Match", String.class);
            String acceptEncoding = message.getHeader("Accept-Encoding", String.class);
            message.removeHeaders("*");
            message.setHeader("ETag", etag);
            ResponseHeaders.cacheControl(exchange, cacheControl);
            message.setHeader("Vary", "Accept-Encoding");
            message.setHeader("X-Content-Type-Options", "nosniff");
            // public code, no credentials: any page may load it, as a module script too (which needs CORS)
            message.setHeader("Access-Control-Allow-Origin", "*");
            message.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
            if (ifNoneMatch != null && ifNoneMatch.contains(etag)) {
                message.setHeader(Exchange.HTTP_RESPONSE_CODE, 304);
                message.setBody(null);
                return;
            }
            message.setHeader(Exchange.HTTP_RESPONSE_CODE, 200);
            message.setHeader(Exchange.CONTENT_TYPE, contentType);
            boolean gzipped = acceptEncoding != null && acceptEncoding.contains("gzip");
            if (gzipped) {
                message.setHeader("Content-Encoding", "gzip");
            }
            message.setBody(gzipped ? gzip : plain);
        }
    }
}
