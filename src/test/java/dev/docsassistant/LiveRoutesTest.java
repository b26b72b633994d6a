package dev.docsassistant;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.camel.BindToRegistry;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Routes edited while the service runs: a step file in {@code assistant.routes-dir} (the shipped examples) is changed
 * and another added during the test; the new behaviour applies to the next requests while a stream that started
 * before the edit, held open by the model, still completes.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        "assistant.routes-dir=" + LiveRoutesTest.DIR})
class LiveRoutesTest extends ServiceTest {

    static final String DIR = "target/live-routes";
    private static final Path ROUTES = Path.of(DIR);
    private static final Path EXAMPLES = Path.of("k8s/examples");

    static {
        try { // before the service starts: the folder must exist, and holds the model step sending acme to 'gated'
            emptyFolder(DIR);
            Files.writeString(ROUTES.resolve("model-by-domain.yaml"), modelStep("gated"));
            // The Kubernetes manifests' (empty) steps file loads too.
            Files.copy(Path.of("k8s/base/routes/steps.yaml"), ROUTES.resolve("steps.yaml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BindToRegistry("gatedModel")
    private final GatedModel model = new GatedModel();

    @Test
    void anEditedRouteAppliesToNewRequestsWhileAnOpenStreamCompletes() throws Exception {
        model.hold();
        HttpResponse<InputStream> before = http.send(post("/v1/assistant/acme/message", ACME_KEY,
                question("please wait")).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, before.statusCode());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(before.body(), StandardCharsets.UTF_8))) {
            assertEquals("0:\"first \"", readThroughFirstText(lines), "the step sent acme to the gated model");

            // The edit: acme back to the default model, and a new step that wants a header.
            Files.writeString(ROUTES.resolve("model-by-domain.yaml"), modelStep("extractive"));
            Files.copy(EXAMPLES.resolve("require-team-header.yaml"), ROUTES.resolve("require-team-header.yaml"),
                    StandardCopyOption.REPLACE_EXISTING);

            HttpResponse<String> refused = awaitStatus(403);
            assertEquals("Send the X-Docs-Team header", JSON.readTree(refused.body()).get("detail").asText());
            HttpResponse<String> after = send(post("/v1/assistant/acme/message", ACME_KEY, question("please wait"))
                    .header("X-Docs-Team", "platform"));
            assertEquals(200, after.statusCode(), after.body());
            assertFalse(after.body().contains("0:\"first \""), "answered by the default model now: " + after.body());
            assertTrue(after.body().contains("\nd:{"), after.body());

            model.release();
            List<String> rest = lines.lines().toList();
            assertEquals("0:\"second\"", rest.get(0), "the stream that began before the edit went on");
            assertTrue(rest.get(rest.size() - 1).startsWith("d:"), rest.toString());
        }
    }

    /** The shipped example, pointed at this test's tenant and models. */
    private static String modelStep(String provider) throws IOException {
        return Files.readString(EXAMPLES.resolve("model-by-domain.yaml"))
                .replace("domain=internal", "domain=acme").replace("provider=openai", "provider=" + provider);
    }

    private HttpResponse<String> awaitStatus(int status) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        HttpResponse<String> response;
        do {
            Thread.sleep(100);
            response = ask("acme", ACME_KEY, question("How do I run it?"));
        } while (response.statusCode() != status && System.nanoTime() < deadline);
        assertEquals(status, response.statusCode(), "the edit took effect: " + response.body());
        return response;
    }

    private static String readThroughFirstText(BufferedReader lines) throws IOException {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.startsWith("0:")) {
                return line;
            }
        }
        throw new AssertionError("the stream ended before any text");
    }
}
