package dev.docsassistant;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.docsassistant.model.AnswerModel;
import dev.docsassistant.model.ModelEvent;
import dev.docsassistant.model.ModelReply;
import dev.docsassistant.model.ModelRequest;
import dev.docsassistant.model.Source;
import dev.docsassistant.model.Usage;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.RedisThreadStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM, as Kubernetes sends it: the service runs in its own JVM and is terminated while two answers stream. New
 * requests are refused at once, the answer that ends within the grace period ends normally, and the one still going
 * when the grace period is over is ended with a {@code 3:} part. And SIGKILL, a crash: the questions being answered
 * are kept on Redis.
 */
class ShutdownTest {

    private static final long GRACE_SECONDS = 4;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private Process service;

    @Test
    void openStreamsGetTheGracePeriodThenA3Part() throws Exception {
        URI base = launch(Map.of());

        BufferedReader endless = open(base, "go on forever");
        BufferedReader slow = open(base, "answer slowly");
        long terminated = System.nanoTime();
        service.destroy(); // SIGTERM

        HttpResponse<String> refused = awaitRefusal(base);
        assertEquals(503, refused.statusCode(), "new requests are refused while open streams finish");
        assertEquals("application/problem+json", refused.headers().firstValue("Content-Type").orElse(null));
        assertTrue(refused.body().contains("\"code\":\"shutting_down\""), refused.body());

        List<String> slowRest = slow.lines().toList();
        assertEquals("0:\"done\"", slowRest.get(slowRest.size() - 4), slowRest.toString());
        assertTrue(slowRest.get(slowRest.size() - 1).startsWith("d:"), "finished normally: " + slowRest);

        List<String> endlessRest = endless.lines().toList();
        long cutAfter = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - terminated);
        assertEquals("3:\"The service is restarting and this answer was cut short. Please ask again.\"",
                endlessRest.get(endlessRest.size() - 1), endlessRest.toString());
        assertTrue(endlessRest.stream().noneMatch(line -> line.startsWith("d:")), endlessRest.toString());
        assertTrue(cutAfter >= GRACE_SECONDS - 1, "cut only after the grace period, was " + cutAfter + "s");

        assertTrue(service.waitFor(30, TimeUnit.SECONDS), "the service exits");
    }

    /**
     * kill -9 while six answers stream, their threads on Redis: each thread keeps its question (recorded before the
     * model was called), with no answer and marked incomplete; only the answers were lost.
     */
    @Test
    void aCrashLosesTheAnswersNotTheQuestions() throws Exception {
        try (RedisServer redis = RedisServer.startOrSkip()) {
            URI base = launch(Map.of("ASSISTANT_STORE", "redis", "ASSISTANT_REDIS_URL", redis.url(0)));
            Map<String, String> asked = new LinkedHashMap<>();
            List<BufferedReader> streams = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String question = "Question " + i + ": go on forever";
                HttpResponse<InputStream> response = http.send(request(base, question),
                        HttpResponse.BodyHandlers.ofInputStream());
                streams.add(firstText(response));
                asked.put(response.headers().firstValue("X-Thread-Id").orElseThrow(), question);
            }

            service.destroyForcibly(); // SIGKILL: no shutdown of any kind
            assertTrue(service.waitFor(30, TimeUnit.SECONDS));
            for (BufferedReader stream : streams) {
                stream.close(); // cut mid-answer: the connection is gone
            }

            RedisThreadStore threads = new RedisThreadStore(redis.client(), 1440, 50, 262_144);
            asked.forEach((threadId, question) -> {
                List<ChatThread.Turn> turns = threads.find(threadId).orElseThrow().turns();
                assertEquals(1, turns.size(), threadId);
                assertEquals(question, turns.get(0).question());
                assertEquals("", turns.get(0).answer());
                assertFalse(turns.get(0).complete());
            });
        }
    }

    /** An API port already taken ends the process with an error, rather than leaving it up and reporting healthy. */
    @Test
    void aPortThatCannotBeBoundEndsTheProcess() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("0.0.0.0"));
             ServerSocket management = new ServerSocket(0)) {
            int managementPort = management.getLocalPort();
            management.close();
            service = start(taken.getLocalPort(), managementPort, "target/port-taken-test.log", Map.of());
            assertTrue(service.waitFor(90, TimeUnit.SECONDS), "the service exits; see target/port-taken-test.log");
            assertNotEquals(0, service.exitValue(), "with an error");
        }
    }

    /**
     * Six questions answered (the first one's row written), then SIGTERM at once, five rows still waiting in the
     * writer's queue (a long linger):
     * the stop writes them before the store closes, and the database holds every turn afterwards.
     */
    @Test
    void aGracefulStopWritesEveryAnsweredTurn() throws Exception {
        Path data = Path.of("target/shutdown-records-" + System.nanoTime()).toAbsolutePath();
        URI base = launch(Map.of("ASSISTANT_RECORDS_DATA_DIR", data.toString(), "ASSISTANT_RECORDS_LINGER_MS", "3000"));
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> answered = http.send(request(base, "Question " + i), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answered.statusCode(), answered.body());
            if (i == 0) {
                awaitTurn(data); // the first row written: the store's pool is open, as in any running service
            }
        }
        service.destroy(); // SIGTERM
        assertTrue(service.waitFor(60, TimeUnit.SECONDS), "the service exits");
        assertEquals(6, turns(data), "every answered turn is kept; see target/shutdown-test.log");
    }

    /**
     * Polls the embedded database in {@code data} until a turn is written (after the writer's linger); the service
     * makes and migrates the file as it writes its first row.
     */
    private static void awaitTurn(Path data) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(data.resolve("records.db")) || turnsYet(data) == 0) {
            assertTrue(System.nanoTime() < deadline, "no turn written; see target/shutdown-test.log");
            Thread.sleep(100);
        }
    }

    private static int turnsYet(Path data) {
        try {
            return turns(data);
        } catch (java.sql.SQLException migrating) {
            return 0;
        }
    }

    private static int turns(Path data) throws java.sql.SQLException {
        try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:sqlite:" + data.resolve("records.db"));
             java.sql.ResultSet turns = db.createStatement().executeQuery("SELECT COUNT(*) FROM turns")) {
            turns.next();
            return turns.getInt(1);
        }
    }

    /**
     * On a read-only root file system, as the shipped pods run, with records on and the embedded store's folder there:
     * the process ends at start-up, non-zero, naming the folder and the property, rather than answering while every
     * record is lost.
     */
    @Test
    void aStoreOfRecordThatCannotBeWrittenEndsTheStart() throws Exception {
        Assumptions.assumeTrue(bubblewrapRuns(), "bwrap (Debian bubblewrap) is needed for a read-only root");
        Path data = Path.of("target/read-only-records").toAbsolutePath();
        try (ServerSocket api = new ServerSocket(0); ServerSocket management = new ServerSocket(0)) {
            int port = api.getLocalPort();
            int managementPort = management.getLocalPort();
            api.close();
            management.close();
            long started = System.nanoTime();
            // /tmp is the pod's emptyDir; the checkout (its classes) is bound again, read-only, in case it lies there
            String checkout = Path.of("").toAbsolutePath().toString();
            service = start(List.of("bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs",
                    "/tmp", "--ro-bind", checkout, checkout), port, managementPort, "target/read-only-records.log",
                    Map.of("ASSISTANT_RECORDS_DATA_DIR", data.toString()));
            assertTrue(service.waitFor(90, TimeUnit.SECONDS), "the service exits; see target/read-only-records.log");
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            assertNotEquals(0, service.exitValue(), "with an error");
            String log = Files.readString(Path.of("target/read-only-records.log"));
            assertTrue(log.contains(data.toString()) && log.contains("assistant.records.data-dir"),
                    "names the folder and the property: " + log);
            System.out.println("A store of record that cannot be written ended the start after " + seconds + " s");
        }
    }

    @Test
    void aDatabaseThatCannotBeReachedEndsTheStartNamingItWithoutItsPassword() throws Exception {
        try (ServerSocket api = new ServerSocket(0); ServerSocket management = new ServerSocket(0);
                ServerSocket closed = new ServerSocket(0)) {
            int port = api.getLocalPort();
            int managementPort = management.getLocalPort();
            String url = "jdbc:postgresql://127.0.0.1:" + closed.getLocalPort() + "/records";
            api.close();
            management.close();
            closed.close(); // nothing listens there
            long started = System.nanoTime();
            service = start(port, managementPort, "target/unreachable-records.log", Map.of(
                    "ASSISTANT_RECORDS_JDBC_URL", url + "?password=url-secret-7",
                    "ASSISTANT_RECORDS_PASSWORD", "property-secret-9"));
            assertTrue(service.waitFor(90, TimeUnit.SECONDS), "the service exits; see target/unreachable-records.log");
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            assertNotEquals(0, service.exitValue(), "with an error");
            String log = Files.readString(Path.of("target/unreachable-records.log"));
            assertTrue(log.contains(url) && log.contains("assistant.records.jdbc-url"),
                    "names the URL and the property: " + log);
            assertFalse(log.contains("url-secret-7") || log.contains("property-secret-9"), "no password: " + log);
            System.out.println("A database that cannot be reached ended the start after " + seconds + " s");
        }
    }

    private static boolean bubblewrapRuns() {
        try {
            return new ProcessBuilder("bwrap", "--ro-bind", "/", "/", "true").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static Process start(int port, int managementPort, String log, Map<String, String> env)
            throws IOException {
        return start(List.of(), port, managementPort, log, env);
    }

    /** @param wrapper the command the JVM runs under (bwrap and its options), or none */
    private static Process start(List<String> wrapper, int port, int managementPort, String log,
            Map<String, String> env) throws IOException {
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "org.apache.camel.main.Main"));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(Path.of(log).toFile());
        builder.environment().putAll(Map.of(
                "CAMEL_SERVER_PORT", Integer.toString(port),
                "CAMEL_MANAGEMENT_PORT", Integer.toString(managementPort),
                "ASSISTANT_TENANTS_FILE", "src/test/resources/tenants.yaml",
                "ASSISTANT_SEARCH_SEMANTIC", "false"));
        builder.environment().putAll(env);
        return builder.start();
    }

    /** Starts the service in its own JVM with the slow model and {@code more} environment; its API's address. */
    private URI launch(Map<String, String> more) throws Exception {
        int port;
        int managementPort;
        try (ServerSocket socket = new ServerSocket(0); ServerSocket management = new ServerSocket(0)) {
            port = socket.getLocalPort();
            managementPort = management.getLocalPort();
        }
        Path routes = Files.createDirectories(Path.of("target/shutdown-routes"));
        Files.writeString(routes.resolve("slow-model.yaml"), """
                - beans:
                    - name: slowModel
                      type: "#class:dev.docsassistant.ShutdownTest$SlowModel"
                """);
        Map<String, String> env = new LinkedHashMap<>(Map.of(
                "ASSISTANT_ROUTES_DIR", routes.toString(),
                "ASSISTANT_MODEL_PROVIDER", "slow",
                "ASSISTANT_SHUTDOWN_GRACE_SECONDS", Long.toString(GRACE_SECONDS),
                "CAMEL_MAIN_SHUTDOWN_TIMEOUT", "20"));
        env.putAll(more);
        service = start(port, managementPort, "target/shutdown-test.log", env);
        awaitReady(URI.create("http://127.0.0.1:" + managementPort));
        return URI.create("http://127.0.0.1:" + port);
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (service != null && service.isAlive()) {
            service.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private void awaitReady(URI base) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline && service.isAlive()) {
            try {
                if (http.send(HttpRequest.newBuilder(base.resolve("/observe/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // starting
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the service did not become ready; see target/shutdown-test.log");
    }

    /** A stream, read up to its first text part (the model is answering). */
    private BufferedReader open(URI base, String question) throws Exception {
        return firstText(http.send(request(base, question), HttpResponse.BodyHandlers.ofInputStream()));
    }

    private static BufferedReader firstText(HttpResponse<InputStream> response) throws IOException {
        assertEquals(200, response.statusCode());
        BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.startsWith("0:")) {
                return lines;
            }
        }
        throw new AssertionError("no text before the stream ended");
    }

    private HttpResponse<String> awaitRefusal(URI base) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GRACE_SECONDS);
        HttpResponse<String> response;
        do {
            Thread.sleep(100);
            response = http.send(request(base, "anyone there?"), HttpResponse.BodyHandlers.ofString());
        } while (response.statusCode() == 200 && System.nanoTime() < deadline);
        return response;
    }

    private static HttpRequest request(URI base, String question) {
        return HttpRequest.newBuilder(base.resolve("/v1/assistant/acme/message")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + ServiceTest.ACME_KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(ServiceTest.question(question))).build();
    }

    /**
     * "forever": one delta, then nothing until closed. "slowly": a delta every 250 ms for 2 s, within the grace
     * period. Anything else: answered at once.
     */
    public static class SlowModel implements AnswerModel {

        @Override
        public ModelReply answer(ModelRequest request) {
            String question = request.chat().question();
            List<String> deltas = new ArrayList<>(List.of("first "));
            if (question.contains("slowly")) {
                for (int i = 0; i < 7; i++) {
                    deltas.add("more ");
                }
            }
            deltas.add("done");
            boolean endless = question.contains("forever");
            return new ModelReply() {
                private final CountDownLatch closed = new CountDownLatch(1);
                private int next;

                @Override
                public List<Source> sources() {
                    return List.of();
                }

                @Override
                public ModelEvent next() throws InterruptedException {
                    if (next > 0 && endless) {
                        closed.await(60, TimeUnit.SECONDS);
                        throw new IllegalStateException("closed");
                    }
                    if (next > 0 && closed.await(question.contains("slowly") ? 250 : 0, TimeUnit.MILLISECONDS)) {
                        throw new IllegalStateException("closed");
                    }
                    return next < deltas.size() ? new ModelEvent.Text(deltas.get(next++)) : null;
                }

                @Override
                public Usage usage() {
                    return new Usage(1, deltas.size());
                }

                @Override
                public void close() {
                    closed.countDown();
                }
            };
        }
    }
}
