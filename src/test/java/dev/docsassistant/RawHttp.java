package dev.docsassistant;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for what {@link java.net.http.HttpClient} will not send: a Content-Length whose body
 * never comes, a request from another loopback address (127.0.0.2, an untrusted peer), raw bytes on the wire.
 */
final class RawHttp {

    /** @param chunks a chunked body's chunks as they came (each one write of the server), else empty */
    record Response(int status, Map<String, List<String>> headers, String body, List<String> chunks) {

        Response(int status, Map<String, List<String>> headers, String body) {
            this(status, headers, body, List.of());
        }

        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.get(0);
        }
    }

    private RawHttp() {
    }

    /** Sends {@code head} (request line and headers, CRLF-separated, ending in a blank line) then {@code body}. */
    static Response send(String localAddress, int port, String head, byte[] body) throws IOException {
        try (Socket socket = new Socket()) {
            socket.setSoTimeout(10_000);
            if (localAddress != null) {
                socket.bind(new InetSocketAddress(localAddress, 0));
            }
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            try {
                out.write(body);
                out.flush();
            } catch (SocketException refusedMidBody) {
                // the server answered and closed before reading everything: read what it said
            }
            return read(socket.getInputStream());
        }
    }

    /**
     * Sends {@code request} as it is and reads until the server closes the connection: what it answered before
     * closing (ISO-8859-1), or null if it kept the connection open past the socket timeout.
     */
    static String untilClosed(int port, String request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.setSoTimeout(10_000);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            ByteArrayOutputStream answered = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            try {
                for (int b = in.read(); b >= 0; b = in.read()) {
                    answered.write(b);
                }
            } catch (SocketTimeoutException open) {
                return null;
            } catch (SocketException reset) {
                // closed with unread bytes: a reset is a close too
            }
            return answered.toString(StandardCharsets.ISO_8859_1);
        }
    }

    static String head(String method, String path, String... headerLines) {
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n");
        for (String line : headerLines) {
            head.append(line).append("\r\n");
        }
        return head.append("\r\n").toString();
    }

    private static Response read(InputStream in) throws IOException {
        String statusLine = line(in);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String line = line(in); !line.isEmpty(); line = line(in)) {
            int colon = line.indexOf(':');
            headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        List<String> chunks = new ArrayList<>();
        List<String> length = headers.get("content-length");
        if (length != null) {
            body.write(in.readNBytes(Integer.parseInt(length.get(0))));
        } else if ("chunked".equalsIgnoreCase(String.join("", headers.getOrDefault("transfer-encoding", List.of())))) {
            for (int size = Integer.parseInt(line(in).trim(), 16); size > 0; size = Integer.parseInt(line(in).trim(), 16)) {
                byte[] chunk = in.readNBytes(size);
                body.write(chunk);
                chunks.add(new String(chunk, StandardCharsets.UTF_8));
                line(in);
            }
        }
        return new Response(status, headers, body.toString(StandardCharsets.UTF_8), chunks);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("Connection closed mid-line: " + line);
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
