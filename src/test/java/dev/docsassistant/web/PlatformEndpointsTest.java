package dev.docsassistant.web;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.docsassistant.web.PlatformEndpoints.Match;
import dev.docsassistant.web.PlatformEndpoints.Template;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class PlatformEndpointsTest {

    @Test
    void compilesEachTemplateOnce() {
        Template message = PlatformEndpoints.template("/v1/assistant/{domain}/message", false);

        assertSame(message, PlatformEndpoints.template("/v1/assistant/{domain}/message", false));
        assertSame(message.regex(), PlatformEndpoints.template("/v1/assistant/{domain}/message", false).regex());
        assertNotSame(message, PlatformEndpoints.template("/v1/assistant/{domain}/message", true),
                "matching on the URI prefix is another regex");
    }

    @Test
    void matchesParametersAndPrefixes() {
        Template message = PlatformEndpoints.template("/v1/assistant/{domain}/message", false);
        assertEquals(Map.of("domain", "acme"), message.parameters("/v1/assistant/acme/message"));
        assertNull(message.parameters("/v1/assistant/acme/message/more"));
        assertNull(message.parameters("/v1/assistant/a/b/message"), "a parameter is one segment");

        Template two = PlatformEndpoints.template("/v1/{domain}/pages/{page}", false);
        assertEquals(List.of("domain", "page"), List.copyOf(two.parameters("/v1/acme/pages/intro").keySet()));
        assertEquals("intro", two.parameters("/v1/acme/pages/intro").get("page"));

        Template any = PlatformEndpoints.template("/*", false);
        assertEquals(Map.of(), any.parameters("/v1/anything/at/all"));
        Template files = PlatformEndpoints.template("/v1/{domain}/files*", false);
        assertEquals(Map.of("domain", "acme"), files.parameters("/v1/acme/files/a/b.png"));
        assertNull(files.parameters("/v1/acme/other"));

        Template prefix = PlatformEndpoints.template("/v1/page/{domain}", true);
        assertEquals(Map.of("domain", "acme"), prefix.parameters("/v1/page/acme/more"));

        assertNull(PlatformEndpoints.template("/v1.0/x", false).parameters("/v1a0/x"), "the template is literal");
    }

    @Test
    void readsTheEndpointsOfTheRunningContext() throws Exception {
        try (CamelContext context = new DefaultCamelContext()) {
            context.getEndpoint("platform-http:/v1/search/{domain}?httpMethodRestrict=POST");
            context.getEndpoint("platform-http:/*?httpMethodRestrict=OPTIONS");

            assertEquals(Set.of("OPTIONS", "POST"), PlatformEndpoints.allowedMethods(context, "/v1/search/acme"));
            assertEquals(Set.of(), PlatformEndpoints.allowedMethods(context, "/v1/nothing/acme"),
                    "the catch-all preflight route alone allows nothing");
            assertEquals(Set.of(new Match(Set.of("POST"), Map.of("domain", "acme")),
                    new Match(Set.of("OPTIONS"), Map.of())), Set.copyOf(PlatformEndpoints.matching(context, "/v1/search/acme")));

            context.getEndpoint("platform-http:/v1/page/{domain}?httpMethodRestrict=POST");
            assertEquals(Set.of("OPTIONS", "POST"), PlatformEndpoints.allowedMethods(context, "/v1/page/acme"),
                    "an endpoint added later is matched too");
        }
    }
}
