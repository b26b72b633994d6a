package dev.docsassistant;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.camel.BindToRegistry;
import org.apache.camel.component.platform.http.PlatformHttpComponent;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that open connections and never finish a request, over raw sockets: each connection is dropped once
 * {@code assistant.http.idle-timeout-seconds} (3 s here) passes without a byte, or
 * {@code assistant.http.request-timeout-seconds} (4 s) after a request's first byte however slowly the rest comes,
 * with a 408 when no answer has begun; while an answer is owed, silence is not idleness.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.search.semantic=false", "assistant.model.provider=gated",
        "assistant.http.idle-timeout-seconds=3", "assistant.http.request-timeout-seconds=4",
        // the stalled connections stand for many clients: from one address its limits would refuse most at once
        ServiceTest.UNLIMITED_ADDRESS_RATE, ServiceTest.UNLIMITED_ADDRESS_STREAMS})
class ConnectionTimeoutsTest extends ServiceTest {

    private static final String PATH = "/v1/assistant/acme/message";
    /** A request's head: the key, and a body of 1,000 bytes announced. */
    private static final String HEAD = "POST " + PATH + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
            + ACME_KEY + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n";

    @BindToRegistry("gatedModel")
    private final GatedModel model = new GatedModel();

    @Test
    void aThousandStalledHalfRequestsAreDroppedWhileOthersAreServed() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 1000; i++) {
                // half stop inside the headers, half after the headers, inside the body
                String part = i % 2 == 0 ? HEAD.substring(0, 60) : HEAD + "{\"messages\":[";
                Socket socket = connect();
                socket.getOutputStream().write(part.getBytes(StandardCharsets.ISO_8859_1));
                stalled.add(socket);
            }
            // on a connection of its own: one kept alive from another test may be closing, idle for 3 s, as it is
            // taken (the client then reads no bytes)
            HttpResponse<String> served = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(post(PATH, ACME_KEY, question("How do I change the port?")).build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, served.statusCode(), "a reader is served beside 1,000 stalled connections");

            for (Socket socket : stalled) {
                socket.setSoTimeout(30_000); // bounded: a connection never dropped fails here
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
                assertTrue(answer.contains("\"code\":\"request_timeout\""), answer);
            }
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    void aRequestTricklingInByteByByteIsCutAtTheDeadline() throws Exception {
        String body = "{\"messages\":[" + " ".repeat(986) + "]}";
        // in the headers (a header of 400 bytes), and in the body: a byte every 200 ms never looks idle
        for (String request : List.of(HEAD.replace("Host:", "X-Padding: " + "a".repeat(400) + "\r\nHost:") + body,
                HEAD + body)) {
            try (Socket socket = connect()) {
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                socket.setSoTimeout(200);
                int sent = 0;
                int first = -1;
                while (first < 0 && sent < request.length()) {
                    out.write(request.charAt(sent++));
                    out.flush();
                    try {
                        first = in.read();
                    } catch (SocketTimeoutException stillReading) {
                        // the server is still waiting for more
                    }
                }
                assertTrue(sent < request.length(), "cut before the request was complete (" + sent + " bytes)");
                socket.setSoTimeout(10_000);
                String answer = (char) first + new String(in.readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
            }
        }
    }

    @Test
    void anIdleKeptAliveConnectionIsClosed() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write("GET /no-such-path HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            socket.setSoTimeout(30_000);
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 404 "), "answered, kept alive, then closed when idle: " + answer);
        }
    }

    @Test
    void anEmptyLineAfterARequestStartsNoOther() throws Exception {
        try (Socket socket = connect()) {
            // HTTP/1.1 lets a client send empty lines between requests (some send one after a body)
            socket.getOutputStream().write("GET /no-such-path HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            socket.setSoTimeout(30_000);
            InputStream in = socket.getInputStream();
            String status = new String(in.readNBytes(13), StandardCharsets.UTF_8);
            socket.getOutputStream().write("\r\n".getBytes(StandardCharsets.ISO_8859_1)); // once answered
            String answer = status + new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 404 ") && !answer.contains(" 408 "), "one answer, then closed when "
                    + "idle: " + answer);
        }
    }

    @Test
    void anAnswerSilentLongerThanTheIdleTimeoutIsNotCut() throws Exception {
        model.hold();
        Thread release = new Thread(() -> {
            try {
                Thread.sleep(5_000); // the model is silent longer than the idle timeout (3 s)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            model.release();
        });
        release.start();
        HttpResponse<String> answer = ask("acme", ACME_KEY, question("please wait"));
        release.join();
        assertEquals(200, answer.statusCode());
        assertTrue(answer.body().contains("0:\"second\""), answer.body());
        assertTrue(answer.body().contains("\nd:{"), "the stream ended normally: " + answer.body());
    }

    private Socket connect() throws IOException {
        int port = context.getComponent("platform-http", PlatformHttpComponent.class).getEngine().getServerPort();
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        return socket;
    }
}
