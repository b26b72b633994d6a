package dev.docsassistant;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real Git server on loopback for the tests: {@code git http-backend} (Git's own smart-HTTP server, a CGI program)
 * behind a small CGI server, serving the bare repositories under a folder to a user with a password (HTTP Basic),
 * as a Git host does. Requests without the right credentials get 401 and never reach Git.
 */
public final class GitHttpServer implements AutoCloseable {

    private final HttpServer server;
    private final Path root;
    private final String authorization;

    public GitHttpServer(Path root, String user, String password) throws IOException {
        this.root = root.toAbsolutePath();
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
    }

    /** {@code http://127.0.0.1:<port>/<name>}: the URL of the bare repository {@code <root>/<name>}. */
    public String url(String name) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + name;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!authorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"git\"");
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            ProcessBuilder cgi = new ProcessBuilder("git", "http-backend");
            Map<String, String> env = cgi.environment();
            env.put("GIT_PROJECT_ROOT", root.toString());
            env.put("GIT_HTTP_EXPORT_ALL", "1");
            env.put("REQUEST_METHOD", exchange.getRequestMethod());
            env.put("PATH_INFO", exchange.getRequestURI().getPath());
            env.put("QUERY_STRING", exchange.getRequestURI().getRawQuery() == null ? ""
                    : exchange.getRequestURI().getRawQuery());
            env.put("REMOTE_USER", "tester");
            env.put("REMOTE_ADDR", "127.0.0.1");
            copyHeader(exchange, "Content-Type", "CONTENT_TYPE", env);
            copyHeader(exchange, "Content-Encoding", "HTTP_CONTENT_ENCODING", env);
            copyHeader(exchange, "Git-Protocol", "HTTP_GIT_PROTOCOL", env);
            byte[] body = exchange.getRequestBody().readAllBytes();
            env.put("CONTENT_LENGTH", String.valueOf(body.length));
            Process process = cgi.redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try (OutputStream in = process.getOutputStream()) {
                in.write(body);
            }
            byte[] output;
            try (InputStream out = process.getInputStream()) {
                output = out.readAllBytes();
            }
            respond(exchange, output);
        }
    }

    private static void copyHeader(HttpExchange exchange, String header, String variable, Map<String, String> env) {
        String value = exchange.getRequestHeaders().getFirst(header);
        if (value != null) {
            env.put(variable, value);
        }
    }

    /** The CGI response: header lines (a {@code Status:} among them), a blank line, the body. */
    private static void respond(HttpExchange exchange, byte[] output) throws IOException {
        int end = -1;
        for (int i = 0; i + 1 < output.length; i++) {
            if (output[i] == '\n' && output[i + 1] == '\n') {
                end = i;
                break;
            }
            if (i + 3 < output.length && output[i] == '\r' && output[i + 1] == '\n' && output[i + 2] == '\r'
                    && output[i + 3] == '\n') {
                end = i;
                break;
            }
        }
        if (end < 0) {
            exchange.sendResponseHeaders(500, -1);
            return;
        }
        int status = 200;
        for (String line : new String(output, 0, end, StandardCharsets.ISO_8859_1).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            if (name.equalsIgnoreCase("Status")) {
                status = Integer.parseInt(value.split(" ")[0]);
            } else {
                exchange.getResponseHeaders().add(name, value);
            }
        }
        int start = end + (output[end] == '\r' ? 4 : 2);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(output, start, output.length - start);
        exchange.sendResponseHeaders(status, body.size() == 0 ? -1 : body.size());
        try (OutputStream out = exchange.getResponseBody()) {
            body.writeTo(out);
        }
    }

    /** Runs git in a folder (the test's working copy) and fails on a non-zero exit. */
    public static void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("git", "-C", dir.toString(),
                "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
