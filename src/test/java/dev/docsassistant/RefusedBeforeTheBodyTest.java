package dev.docsassistant;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.apache.camel.component.platform.http.PlatformHttpComponent;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The key, domain and quotas are checked from the headers: a request they refuse is answered at once, without its
 * body being sent (here: a body announced and never sent, which the service would otherwise wait for until the
 * request deadline, 30 s by default), and its connection is closed after the answer.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false", "assistant.max-body-bytes=1048576"})
class RefusedBeforeTheBodyTest extends ServiceTest {

    private static final String BODY = question("How do I change the port?");

    @Test
    void aBadKeyIsRefusedWithoutTheBody() throws Exception {
        for (String path : List.of("/v1/assistant/acme/message", "/v2/assistant/acme/message", "/v1/search/acme",
                "/v1/page/acme", "/v1/assistant/acme/feedback")) {
            String answer = exchange(head(path, "mint_dsc_wrong", "Content-Length: 900000"), "");
            assertTrue(answer.startsWith("HTTP/1.1 401 "), path + ": " + answer);
            assertTrue(answer.contains("\"code\":\"unauthorized\""), answer);
            assertTrue(answer.toLowerCase().contains("connection: close"), answer);
        }
        // another organization's domain, refused from the headers too
        String answer = exchange(head("/v1/assistant/acme/message", GLOBEX_KEY, "Content-Length: 900000"), "");
        assertTrue(answer.startsWith("HTTP/1.1 403 "), answer);
    }

    /**
     * Most clients send the whole body before they read, and give up when a write fails: the refusal must still
     * reach them. A close with the body's bytes unread makes the kernel reset the connection, and the client's next
     * write fails (Java's HttpClient lost a 413 so in a clean-clone CI run): so the rest of the body is read and
     * dropped, bounded, before the close. 8 MB: more than loopback's socket buffers hold, so the close finds bytes
     * unread.
     */
    @Test
    void aClientThatSendsItsWholeBodyBeforeReadingStillGetsTheRefusal() throws Exception {
        byte[] body = new byte[8_000_000];
        for (int round = 0; round < 5; round++) {
            try (Socket socket = connect()) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(head("/v1/assistant/acme/message", "mint_dsc_wrong",
                        "Content-Length: " + body.length).getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().write(body); // a write refused by a reset ends it, as in most clients
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(answer.startsWith("HTTP/1.1 401 "), "round " + round + ": " + answer);
            }
        }
    }

    /**
     * The rest of a refused body is dropped for 2 s at most: a client trickling it (a byte every 50 ms, never done)
     * has its connection closed then, however long it would go on.
     */
    @Test
    void aRefusedBodyThatTricklesIsDroppedForTwoSecondsThenTheConnectionCloses() throws Exception {
        try (Socket socket = refusedOnItsWay("Content-Length: 900000")) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            assertEquals("HTTP/1.1 401", new String(in.readNBytes(12), StandardCharsets.UTF_8));
            long answered = System.nanoTime();
            Thread trickle = new Thread(() -> {
                try {
                    while (true) {
                        out.write(' ');
                        out.flush();
                        Thread.sleep(50);
                    }
                } catch (IOException | InterruptedException closed) {
                    // the server closed, or the test is over
                }
            });
            trickle.start();
            try {
                readUntilClosed(in);
            } finally {
                trickle.interrupt();
            }
            long lingered = Duration.ofNanos(System.nanoTime() - answered).toMillis();
            assertTrue(lingered >= 1_500 && lingered < 6_000, "closed " + lingered + " ms after the answer");
        }
    }

    /**
     * ... and 16 MiB of it at most: a client sending without end as fast as it can is cut off once past them (else
     * it would send for 2 s, at loopback speed tens to hundreds of MiB), round after round.
     */
    @Test
    void aRefusedBodyIsDroppedForSixteenMebibytesAtMostThenTheConnectionCloses() throws Exception {
        byte[] chunk = ("10000\r\n" + " ".repeat(0x10000) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        for (int round = 0; round < 3; round++) {
            try (Socket socket = refusedOnItsWay("Transfer-Encoding: chunked")) {
                OutputStream out = socket.getOutputStream();
                long sent = 0;
                try {
                    while (sent < 1L << 30) {
                        out.write(chunk);
                        sent += chunk.length;
                    }
                } catch (IOException closed) {
                    // cut off
                }
                // 16 MiB dropped, and what the sockets' buffers on either side held when the connection closed
                assertTrue(sent < 40L << 20, "round " + round + ": " + (sent >> 20) + " MiB sent before the close");
            }
        }
    }

    /** A connection that sent the head of a request refused for its key, its body ({@code framing}) to follow. */
    private Socket refusedOnItsWay(String framing) throws IOException {
        Socket socket = connect();
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(head("/v1/assistant/acme/message", "mint_dsc_wrong", framing)
                .getBytes(StandardCharsets.ISO_8859_1));
        return socket;
    }

    /** Reads and drops what the server sends until it closes the connection (a reset is a close too). */
    private static void readUntilClosed(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // the rest of the answer
            }
        } catch (SocketException reset) {
            // closed with the client's bytes unread
        }
    }

    @Test
    void aClientThatAsksBeforeSendingIsToldToSendOnlyOnceAdmitted() throws Exception {
        String refused = exchange(head("/v1/assistant/acme/message", "mint_dsc_wrong",
                "Content-Length: " + BODY.length(), "Expect: 100-continue"), "");
        assertTrue(refused.startsWith("HTTP/1.1 401 "), "no 100 Continue for a refused request: " + refused);

        try (Socket socket = connect()) {
            socket.getOutputStream().write(head("/v1/assistant/acme/message", ACME_KEY,
                    "Content-Length: " + BODY.length(), "Expect: 100-continue").getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            String interim = new String(in.readNBytes("HTTP/1.1 100 Continue\r\n\r\n".length()), StandardCharsets.UTF_8);
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", interim);
            socket.getOutputStream().write(BODY.getBytes(StandardCharsets.UTF_8));
            String answer = new String(in.readNBytes(12), StandardCharsets.UTF_8);
            assertEquals("HTTP/1.1 200", answer);
        }
    }

    /**
     * A body small enough to prefetch (assistant.http.prefetch-bytes) is taken as it arrives, before the key is
     * checked: the refusal waits for it, as it waits for the headers; a larger one is refused without it (above).
     */
    @Test
    void aSmallBodyOnItsWayIsTakenBeforeTheRefusal() throws Exception {
        // the prefetch is installed by a start-up timer route (http-server.yaml), which may fire after the test began
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try (Socket socket = connect()) {
                socket.setSoTimeout(300);
                socket.getOutputStream().write(head("/v1/assistant/acme/message", "mint_dsc_wrong",
                        "Content-Length: " + BODY.length()).getBytes(StandardCharsets.ISO_8859_1));
                InputStream in = socket.getInputStream();
                try {
                    in.read();
                    assertTrue(System.nanoTime() < deadline, "refused before its small body came");
                    Thread.sleep(100);
                    continue;
                } catch (SocketTimeoutException waitingForTheBody) {
                    socket.setSoTimeout(10_000);
                }
                socket.getOutputStream().write(BODY.getBytes(StandardCharsets.UTF_8));
                assertEquals("HTTP/1.1 401", new String(in.readNBytes(12), StandardCharsets.UTF_8));
                return;
            }
        }
    }

    @Test
    void aChunkedBodyOverTheLimitIsCutOffAt413() throws Exception {
        String chunk = "100000\r\n" + " ".repeat(0x100000) + "\r\n"; // 1 MiB: with the JSON before it, over the limit
        String answer = exchange(head("/v1/assistant/acme/message", ACME_KEY, "Transfer-Encoding: chunked"),
                "5\r\n{\"a\":\r\n" + chunk + chunk);
        assertTrue(answer.startsWith("HTTP/1.1 413 "), answer);
        assertTrue(answer.contains("\"code\":\"body_too_large\""), answer);
    }

    private static String head(String path, String key, String... headers) {
        StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                + "Authorization: Bearer " + key + "\r\nContent-Type: application/json\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        return head.append("\r\n").toString();
    }

    /** Sends {@code request}, then reads until the server closes the connection (at most 10 s). */
    private String exchange(String head, String body) throws IOException {
        try (Socket socket = connect()) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            try {
                socket.getOutputStream().write(body.getBytes(StandardCharsets.ISO_8859_1));
            } catch (IOException refusedMidBody) {
                // answered and closed before everything was sent: read what was said
            }
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private Socket connect() throws IOException {
        int port = context.getComponent("platform-http", PlatformHttpComponent.class).getEngine().getServerPort();
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        return socket;
    }
}
