package dev.docsassistant;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.docsassistant.sources.WebhookSignature;
import org.apache.camel.component.platform.http.PlatformHttpComponent;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-address limit before authentication: an address that failed authentication {@link #FAILURES} times (bad or
 * missing keys, public or admin, or unsigned webhooks) is refused with 429 on every public path before its key or
 * its body is read, whatever key it now sends, while other addresses are served. Each request here announces a body
 * larger than the prefetch and never sends it: an answer at all proves the service did not wait for it (it would
 * until the request deadline, 30 s, past the client's 10 s). Every test speaks from loopback addresses of its own.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-auth-failures.yaml",
        "assistant.search.semantic=false", "assistant.sources.refresh-seconds=0",
        "assistant.ratelimit.ip-auth-failures=" + AuthFailuresTest.FAILURES, ServiceTest.UNLIMITED_ADDRESS_RATE})
class AuthFailuresTest extends ServiceTest {

    static final int FAILURES = 4;
    private static final String ADMIN_KEY = "mint_adm_acme_secret_0123456789";
    /** secrets/auth-failures-webhook, the hooks domain's webhookSecret in tenants-auth-failures.yaml. */
    private static final String WEBHOOK_SECRET = "hook-secret-4711";
    /** Over assistant.http.prefetch-bytes and under assistant.sources.webhook-max-body-bytes: read only once admitted. */
    private static final String ANNOUNCED = "Content-Length: 900000";

    @Test
    void anAddressPastItsFailedKeysIsRefusedOnEveryPathBeforeItsBody() throws Exception {
        String address = "127.0.0.2";
        for (int i = 0; i < FAILURES; i++) {
            assertEquals(403, announce(address, "/v1/search/acme", "Authorization: Bearer " + GLOBEX_KEY).status(),
                    "a valid key of another organization is no failed authentication");
        }
        assertEquals(401, announce(address, "/v1/search/acme", "Authorization: Bearer mint_dsc_wrong").status());
        assertEquals(401, announce(address, "/v2/assistant/acme/message").status(), "no key");
        assertEquals(401, get(address, "/v1/admin/acme/threads", "Authorization: Bearer mint_adm_wrong_0123456789")
                .status(), "an admin key");
        assertEquals(401, announce(address, "/v1/page/acme", "Authorization: Bearer mint_dsc_wrong").status());

        RawHttp.Response refused = announce(address, "/v1/search/acme", "Authorization: Bearer " + ACME_KEY);
        assertEquals(429, refused.status(), "the right key too, once past the budget: " + refused.body());
        assertEquals("application/problem+json", refused.header("Content-Type"));
        assertTrue(refused.body().contains("\"code\":\"rate_limited\""), refused.body());
        assertEquals("ip-auth-failures", refused.header("X-RateLimit-Scope"));
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertTrue(retryAfter >= 1 && retryAfter <= 600, "until the window ends: " + retryAfter);
        for (String path : new String[] {"/v1/assistant/acme/message", "/v2/assistant/acme/message", "/v1/page/acme",
                "/v1/assistant/acme/feedback", "/sites/acme/mcp"}) {
            assertEquals(429, announce(address, path, "Authorization: Bearer " + ACME_KEY).status(), path);
        }
        for (String[] path : new String[][] {{"/v1/widget/config", ACME_KEY}, {"/sites/acme/llms.txt", ACME_KEY},
                {"/v1/admin/acme/threads", ADMIN_KEY}}) {
            assertEquals(429, get(address, path[0], "Authorization: Bearer " + path[1]).status(), path[0]);
        }

        // another address is served as before, its body read once admitted
        byte[] body = "{\"query\":\"install\"}".getBytes(StandardCharsets.UTF_8);
        RawHttp.Response served = RawHttp.send("127.0.0.1", port(), RawHttp.head("POST", "/v1/search/acme",
                "Authorization: Bearer " + ACME_KEY, "Content-Type: application/json",
                "Content-Length: " + body.length), body);
        assertEquals(200, served.status(), served.body());
    }

    @Test
    void anAddressPastItsFailedWebhooksIsRefusedBeforeTheBodyWhileSignedOnesPass() throws Exception {
        String address = "127.0.0.3";
        byte[] body = "{\"ref\":\"refs/heads/main\"}".getBytes(StandardCharsets.UTF_8);
        assertEquals(401, webhook(address, body, null).status(), "unsigned");
        assertEquals(401, webhook(address, body, "sha256=" + WebhookSignature.hmac("guess", body)).status());
        assertEquals(401, webhook(address, body, null, "X-Gitlab-Token: guess").status());
        assertEquals(401, webhook(address, body, "sha256=" + "0".repeat(64)).status());

        RawHttp.Response refused = announce(address, "/v1/project/webhook/hooks", "X-Hub-Signature-256: sha256="
                + WebhookSignature.hmac(WEBHOOK_SECRET, body));
        assertEquals(429, refused.status(), refused.body());
        assertEquals("ip-auth-failures", refused.header("X-RateLimit-Scope"));
        assertTrue(Long.parseLong(refused.header("Retry-After")) >= 1);

        // a signed delivery from another address (the repository's host) passes
        RawHttp.Response delivered = webhook("127.0.0.4", body, "sha256=" + WebhookSignature.hmac(WEBHOOK_SECRET, body));
        assertEquals(202, delivered.status(), delivered.body());
        assertTrue(delivered.body().contains("statusId"), delivered.body());
        // failed deliveries to one domain block that domain's deliveries from the address, not its other requests
        byte[] search = "{\"query\":\"install\"}".getBytes(StandardCharsets.UTF_8);
        assertEquals(200, RawHttp.send(address, port(), RawHttp.head("POST", "/v1/search/acme",
                "Authorization: Bearer " + ACME_KEY, "Content-Type: application/json",
                "Content-Length: " + search.length), search).status());
    }

    @Test
    void webhooksToDomainsThatDoNotExistShareOneBudget() throws Exception {
        String address = "127.0.0.6";
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < FAILURES; i++) {
            assertEquals(401, RawHttp.send(address, port(), RawHttp.head("POST", "/v1/project/webhook/nosuch" + i,
                    "Content-Type: application/json", "Content-Length: " + body.length), body).status());
        }
        RawHttp.Response refused = announce(address, "/v1/project/webhook/nosuch" + FAILURES);
        assertEquals(429, refused.status(), "a made-up domain is no fresh budget: " + refused.body());
    }

    @Test
    void whatTheHeadersAloneRefuseIsRefusedBeforeTheBody() throws Exception {
        String address = "127.0.0.7";
        assertEquals(401, announce(address, "/v1/project/webhook/hooks").status(), "unsigned");
        assertEquals(401, announce(address, "/v1/project/webhook/hooks", "X-Gitlab-Token: guess").status(),
                "a wrong GitLab token");
        assertEquals(401, announce(address, "/v1/project/webhook/acme", "X-Hub-Signature-256: sha256="
                + "0".repeat(64)).status(), "a domain without a webhook secret");
    }

    @Test
    void anUnverifiedWebhookBodyOverItsCapIsRefusedBeforeItIsRead() throws Exception {
        String address = "127.0.0.5";
        RawHttp.Response announced = RawHttp.send(address, port(), RawHttp.head("POST", "/v1/project/webhook/hooks",
                "Content-Type: application/json", "X-Hub-Signature-256: sha256=" + "0".repeat(64),
                "Content-Length: 8000000"), new byte[0]);
        assertEquals(413, announced.status(), announced.body());
        assertTrue(announced.body().contains("at most 1048576 bytes"), announced.body());
        // chunked: cut off as soon as it passes the cap
        String chunk = "100000\r\n" + " ".repeat(0x100000) + "\r\n";
        RawHttp.Response chunked = RawHttp.send(address, port(), RawHttp.head("POST", "/v1/project/webhook/hooks",
                "Content-Type: application/json", "X-Hub-Signature-256: sha256=" + "0".repeat(64),
                "Transfer-Encoding: chunked"), ("5\r\n{\"a\":\r\n" + chunk + chunk).getBytes(StandardCharsets.UTF_8));
        assertEquals(413, chunked.status(), chunked.body());
    }

    /** A webhook with its body, signed as GitHub signs ({@code signature}) or not, with {@code more} headers. */
    private RawHttp.Response webhook(String address, byte[] body, String signature, String... more)
            throws IOException {
        List<String> headers = new ArrayList<>(List.of("Content-Type: application/json",
                "Content-Length: " + body.length));
        if (signature != null) {
            headers.add("X-Hub-Signature-256: " + signature);
        }
        headers.addAll(List.of(more));
        return RawHttp.send(address, port(), RawHttp.head("POST", "/v1/project/webhook/hooks",
                headers.toArray(String[]::new)), body);
    }

    /** A POST announcing {@link #ANNOUNCED} bytes of JSON and sending none. */
    private RawHttp.Response announce(String address, String path, String... headers) throws IOException {
        String[] lines = new String[headers.length + 2];
        System.arraycopy(headers, 0, lines, 0, headers.length);
        lines[headers.length] = "Content-Type: application/json";
        lines[headers.length + 1] = ANNOUNCED;
        return RawHttp.send(address, port(), RawHttp.head("POST", path, lines), new byte[0]);
    }

    private RawHttp.Response get(String address, String path, String... headers) throws IOException {
        return RawHttp.send(address, port(), RawHttp.head("GET", path, headers), new byte[0]);
    }

    private int port() {
        return context.getComponent("platform-http", PlatformHttpComponent.class).getEngine().getServerPort();
    }
}
