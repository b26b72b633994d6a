package dev.docsassistant;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The client address behind a trusted proxy (127.0.0.1 here) comes from the one configured header, X-Forwarded-For by
 * default, read from the right; a Forwarded header the client sends through the proxy, or addresses it puts on the
 * left, change nothing. From any other peer (127.0.0.2, another loopback address) the header is ignored, so a client
 * cannot pick its own quota. (ClientAddressTest covers assistant.client-ip-header=Forwarded.)
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-hardened.yaml",
        "assistant.search.semantic=false", "assistant.trusted-proxies=127.0.0.1/32, 10.0.0.0/8",
        "assistant.ratelimit.ip-per-day=2"})
class TrustedProxyTest extends ServiceTest {

    private static final CapturedLogs LOGS = CapturedLogs.capture();
    private static final byte[] BODY = question("How do I run it?").getBytes(StandardCharsets.UTF_8);
    private static int requests;

    /** Linux answers on all of 127.0.0.0/8; macOS only on 127.0.0.1 unless aliased, so those cases skip there. */
    private static final boolean OTHER_LOOPBACKS = canBind("127.0.0.2") && canBind("127.0.0.3");

    private static boolean canBind(String address) {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(address, 0));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** @param forwardedHeaders header lines, separated by " + " */
    private RawHttp.Response ask(String fromAddress, String forwardedHeaders) throws Exception {
        assumeTrue(fromAddress.equals("127.0.0.1") || OTHER_LOOPBACKS, "this machine cannot connect from "
                + fromAddress + " (alias it on the loopback interface)");
        String requestId = "proxy-test-" + ++requests;
        List<String> headers = new ArrayList<>(List.of("Authorization: Bearer " + ACME_KEY,
                "Content-Type: application/json", "Content-Length: " + BODY.length, "X-Request-Id: " + requestId));
        headers.addAll(List.of(forwardedHeaders.split(" \\+ ")));
        String head = RawHttp.head("POST", "/v1/assistant/acme/message", headers.toArray(String[]::new));
        RawHttp.Response response = RawHttp.send(fromAddress, uri("/").getPort(), head, BODY);
        assertEquals(requestId, response.header("X-Request-Id"), "the request id is returned");
        return response;
    }

    /** The client address the request log recorded for the last request. */
    private String loggedClient() throws Exception {
        String requestId = "proxy-test-" + requests;
        for (int attempt = 0; attempt < 50; attempt++) {
            for (String line : LOGS.access()) {
                JsonNode fields = JSON.readTree(line);
                if (requestId.equals(fields.path("requestId").asText())) {
                    return fields.get("client").asText();
                }
            }
            Thread.sleep(20); // the line is written once the response is out
        }
        throw new AssertionError("no log line for " + requestId);
    }

    /** Dynamic tests, so every row talks to the one running service (a parameterized test would start its own). */
    @TestFactory
    Stream<DynamicTest> takesTheForwardedAddressOnlyFromATrustedProxy() {
        return """
            127.0.0.1 | X-Forwarded-For: 203.0.113.7                         | 203.0.113.7
            127.0.0.1 | X-Forwarded-For: 198.51.100.1, 203.0.113.8           | 203.0.113.8
            127.0.0.1 | X-Forwarded-For: 203.0.113.9, 10.1.2.3               | 203.0.113.9
            127.0.0.1 | X-Forwarded-For: 203.0.113.10:5555                   | 203.0.113.10
            127.0.0.1 | X-Forwarded-For: 203.0.113.11 + X-Forwarded-For: 10.1.2.3 | 203.0.113.11
            127.0.0.1 | X-Forwarded-For: [2001:db8::1]:4711                  | 2001:db8::1
            127.0.0.1 | Forwarded: for=192.0.2.60;proto=https;by=10.0.0.1    | 127.0.0.1
            127.0.0.1 | Forwarded: for=192.0.2.60 + X-Forwarded-For: 203.0.113.12 | 203.0.113.12
            127.0.0.1 | X-Forwarded-For: 203.0.113.13 + Forwarded: for=192.0.2.60 | 203.0.113.13
            127.0.0.1 | X-Forwarded-For: not-an-address                      | 127.0.0.1
            127.0.0.1 | X-Forwarded-For: evil.example.com                    | 127.0.0.1
            127.0.0.2 | X-Forwarded-For: 203.0.113.7                         | 127.0.0.2
            127.0.0.2 | Forwarded: for=192.0.2.60                            | 127.0.0.2
            127.0.0.2 | X-Real-IP: 203.0.113.7                               | 127.0.0.2
            """.lines().map(row -> row.split("\\|")).map(row -> DynamicTest.dynamicTest(
                row[1].trim() + " from " + row[0].trim(), () -> {
                    ask(row[0].trim(), row[1].trim());
                    assertEquals(row[2].trim(), loggedClient());
                }));
    }

    @Test
    void theDailyQuotaFollowsTheRealClient() throws Exception {
        // Behind the proxy: each forwarded client has its own quota (2 a day here).
        assertEquals(200, ask("127.0.0.1", "X-Forwarded-For: 203.0.113.50").status());
        assertEquals(200, ask("127.0.0.1", "X-Forwarded-For: 203.0.113.50").status());
        RawHttp.Response third = ask("127.0.0.1", "X-Forwarded-For: 203.0.113.50");
        assertEquals(429, third.status(), third.body());
        assertEquals(200, ask("127.0.0.1", "X-Forwarded-For: 203.0.113.51").status(), "another client");

        // Nor does a Forwarded header the client sends through the proxy give it a new quota each time.
        for (String spoofed : List.of("192.0.2.1", "192.0.2.2")) {
            assertEquals(200, ask("127.0.0.1", "Forwarded: for=" + spoofed + " + X-Forwarded-For: 203.0.113.52")
                    .status());
        }
        RawHttp.Response forwarded = ask("127.0.0.1", "Forwarded: for=192.0.2.3 + X-Forwarded-For: 203.0.113.52");
        assertEquals(429, forwarded.status(), forwarded.body());
        assertEquals("203.0.113.52", loggedClient());

        // A direct client cannot escape its quota by naming a new address each time.
        assertEquals(200, ask("127.0.0.3", "X-Forwarded-For: 198.51.100.1").status());
        assertEquals(200, ask("127.0.0.3", "X-Forwarded-For: 198.51.100.2").status());
        RawHttp.Response spoofed = ask("127.0.0.3", "X-Forwarded-For: 198.51.100.3");
        assertEquals(429, spoofed.status(), spoofed.body());
        assertEquals("127.0.0.3", loggedClient());
    }

    @Test
    void anIpv6SubscribersWhole64SharesOneQuota() throws Exception {
        assertEquals(200, ask("127.0.0.1", "X-Forwarded-For: 2001:db8:5:6::1").status());
        assertEquals(200, ask("127.0.0.1", "X-Forwarded-For: 2001:db8:5:6::2").status());
        RawHttp.Response third = ask("127.0.0.1", "X-Forwarded-For: 2001:db8:5:6:ffff::3");
        assertEquals(429, third.status(), third.body());
        assertEquals("ip-day", third.header("X-RateLimit-Scope"));
        assertEquals(200, ask("127.0.0.1", "X-Forwarded-For: 2001:db8:5:7::1").status(), "the next /64 is another");
        assertEquals("2001:db8:5:7::1", loggedClient(), "the log keeps the whole address");
    }
}
