package dev.docsassistant;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.openapi.ApiDescription;
import dev.docsassistant.openapi.ApiTraffic;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.ThreadStore;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;
import org.apache.camel.component.platform.http.PlatformHttpComponent;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpRouter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The service as the tests see it: started by {@code @CamelMainTest} from the real application.properties and
 * YAML routes, on a free port, and spoken to over real HTTP. Subclasses add their own properties.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ServiceTest implements CamelContextAware {

    public static final String ACME_KEY = "mint_dsc_acme_test";
    public static final String GLOBEX_KEY = "mint_dsc_globex_test";
    protected static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Every test client speaks from 127.0.0.1, faster and more at once than any reader: a test class that sends
     * many requests and is not about the per-address limits lifts them with these properties, so that its own
     * requests are not refused as a flood.
     */
    protected static final String UNLIMITED_ADDRESS_RATE = "assistant.ratelimit.ip-per-minute=0";
    protected static final String UNLIMITED_ADDRESS_STREAMS = "assistant.ratelimit.ip-max-streams=0";
    /** For a class that sends more bad keys from one address than a window allows (AuthFailuresTest tests that). */
    protected static final String UNLIMITED_AUTH_FAILURES = "assistant.ratelimit.ip-auth-failures=0";

    protected final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1) // as browsers talk to a plain-HTTP origin
            .connectTimeout(Duration.ofSeconds(5)).build();
    protected CamelContext context;
    private boolean ready;
    private final Set<ApiTraffic> traffic = Collections.newSetFromMap(new IdentityHashMap<>());

    @Override
    public void setCamelContext(CamelContext context) {
        this.context = context;
    }

    @Override
    public CamelContext getCamelContext() {
        return context;
    }

    /** Waits until /observe/health says UP: every domain's index is loaded. The context starts before each. */
    @BeforeEach
    void awaitReady() throws Exception {
        if (ready || !awaitsReadiness()) {
            return;
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(managementUri("/observe/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (health.statusCode() == 200) {
                ready = true;
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("The service did not become ready");
    }

    /** The recorder of the service each test talks to (a parameterized test may get a service of its own). */
    @BeforeEach
    void recordTraffic() {
        traffic.add(Objects.requireNonNull(ApiTraffic.of(context), "api-traffic.yaml is not loaded"));
    }

    /** Everything the class's tests sent and got back is as openapi.yaml describes it. */
    @AfterAll
    void trafficMatchesTheApiDescription() {
        traffic.forEach(ApiDescription::assertTrafficMatches);
    }

    /** Whether each test waits for every index first; a test of readiness itself does not. */
    protected boolean awaitsReadiness() {
        return true;
    }

    protected URI uri(String path) {
        int port = context.getComponent("platform-http", PlatformHttpComponent.class).getEngine().getServerPort();
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** On the management port: health and metrics. */
    protected URI managementUri(String path) {
        return URI.create("http://127.0.0.1:" + managementPort(context) + path);
    }

    /** The port the management server bound (the tests give it a random one: CAMEL_MANAGEMENT_PORT in the pom). */
    static int managementPort(CamelContext context) {
        return context.getRegistry().findByType(VertxPlatformHttpRouter.class).stream()
                .filter(VertxPlatformHttpRouter::isManagementServer).findFirst()
                .orElseThrow(() -> new AssertionError("no management server")).getServer().getPort();
    }

    protected HttpRequest.Builder post(String path, String key, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return request;
    }

    /** A browser's preflight from acme's docs origin for the widget's POST: asserts it is allowed, for more checks. */
    protected HttpHeadersAssert allowedPreflight(String path) throws IOException, InterruptedException {
        HttpResponse<String> preflight = send(HttpRequest.newBuilder(uri(path))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "https://docs.acme.example")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization, content-type"));
        assertEquals(204, preflight.statusCode());
        HttpHeadersAssert allowed = new HttpHeadersAssert(preflight);
        allowed.is("Access-Control-Allow-Origin", "https://docs.acme.example");
        allowed.contains("Access-Control-Allow-Methods", "POST");
        allowed.contains("Access-Control-Allow-Headers", "Authorization");
        allowed.contains("Access-Control-Allow-Headers", "Content-Type");
        return allowed;
    }

    protected HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The thread once it holds {@code turns} turns (or after 10 s, as it is): a turn is recorded before the stream's
     * last bytes, but a cut-short one only as the response ends.
     */
    protected ChatThread recordedThread(String threadId, int turns) throws InterruptedException {
        ThreadStore store = context.getRegistry().lookupByNameAndType("threadStore", ThreadStore.class);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        ChatThread thread = store.find(threadId).orElseThrow();
        while (thread.turns().size() < turns && System.nanoTime() < deadline) {
            Thread.sleep(20);
            thread = store.find(threadId).orElseThrow();
        }
        return thread;
    }

    protected HttpResponse<String> ask(String domain, String key, String body) throws IOException, InterruptedException {
        return send(post("/v1/assistant/" + domain + "/message", key, body));
    }

    /** A body as useChat sends it: one user message with a text part. */
    /** A folder for a test's own route files, created empty (before the service starts: it must exist). */
    static Path emptyFolder(String dir) throws IOException {
        Path folder = Path.of(dir);
        Files.createDirectories(folder);
        try (var old = Files.list(folder)) {
            for (Path file : old.toList()) {
                Files.delete(file);
            }
        }
        return folder;
    }

    protected static String question(String text) {
        return conversation(null, null, text);
    }

    protected static String conversation(String threadId, String threadKey, String... userTurns) {
        ObjectNode body = JSON.createObjectNode().put("id", "chat-1").put("fp", "fp-test");
        body.put("retrievalPageSize", 5);
        ArrayNode messages = body.putArray("messages");
        int n = 0;
        for (String turn : userTurns) {
            ObjectNode message = messages.addObject().put("id", "m" + n++).put("role", "user").put("content", turn);
            message.put("createdAt", "2026-11-22T00:00:00.000Z");
            message.putArray("parts").addObject().put("type", "text").put("text", turn);
        }
        if (threadId != null) {
            body.put("threadId", threadId).put("threadKey", threadKey);
        }
        return body.toString();
    }

    /** The data stream's parts, each as its code and parsed JSON value. */
    protected static List<Part> parts(String stream) throws IOException {
        List<Part> parts = new ArrayList<>();
        for (String line : stream.split("\n")) {
            int colon = line.indexOf(':');
            parts.add(new Part(line.substring(0, colon), JSON.readTree(line.substring(colon + 1))));
        }
        return parts;
    }

    protected record Part(String code, JsonNode value) {
    }
}
