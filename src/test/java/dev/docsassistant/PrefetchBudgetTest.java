package dev.docsassistant;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a client holding the public key can make the service hold before its key is checked is bounded in total
 * (assistant.http.prefetch-total-bytes): once small bodies announced and not sent fill it, the next request is
 * refused from its headers, as a large one always is.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false", "assistant.http.prefetch-bytes=1000",
        "assistant.http.prefetch-total-bytes=1500"})
class PrefetchBudgetTest extends ServiceTest {

    private static final int LENGTH = 1000;

    @Test
    void bodiesHeldBeforeTheKeyIsCheckedStayWithinTheirBudget() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        // the prefetch is installed by a start-up timer route (http-server.yaml): wait until a body is held
        try (Socket held = heldUntilItsBody(deadline); Socket next = announce()) {
            next.setSoTimeout(10_000);
            String answer = new String(next.getInputStream().readNBytes(12), StandardCharsets.UTF_8);
            assertEquals("HTTP/1.1 401", answer, "refused from its headers: the budget is spent by the first");
            assertTrue(held.isConnected());
        }
    }

    /** A request whose body the service waits for (it took it for prefetching); the socket is left open. */
    private Socket heldUntilItsBody(long deadline) throws Exception {
        while (true) {
            Socket socket = announce();
            socket.setSoTimeout(300);
            InputStream in = socket.getInputStream();
            try {
                in.read();
            } catch (SocketTimeoutException waitingForTheBody) {
                return socket;
            }
            socket.close();
            assertTrue(System.nanoTime() < deadline, "no body was ever held for prefetching");
            Thread.sleep(100);
        }
    }

    /** Sends the headers of a request with a wrong key and a body of {@value #LENGTH} bytes it never sends. */
    private Socket announce() throws Exception {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", uri("").getPort()), 5_000);
        socket.getOutputStream().write(("POST /v1/assistant/acme/message HTTP/1.1\r\nHost: localhost\r\n"
                + "Authorization: Bearer mint_dsc_wrong\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + LENGTH + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        return socket;
    }
}
