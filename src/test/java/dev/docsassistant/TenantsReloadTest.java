package dev.docsassistant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.Callable;

import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tenants file is edited while the service runs: a revoked key stops working, a broken edit keeps the last good
 * configuration, and origins and new domains take effect, all without a restart.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=target/tenants-reload/tenants.yaml",
        "assistant.search.semantic=false", "assistant.tenants.reload-seconds=1", "assistant.search.reload-seconds=1",
        // it asks with a revoked key until the reload refuses it: those 401s are the test's, not an attacker's
        ServiceTest.UNLIMITED_AUTH_FAILURES})
class TenantsReloadTest extends ServiceTest {

    private static final Path FILE = Path.of("target/tenants-reload/tenants.yaml");
    private static final String SPARE_KEY = "mint_dsc_acme_spare";
    private static final String INITECH_KEY = "mint_dsc_initech_test";
    private static final CapturedLogs LOGS = CapturedLogs.capture();

    static {
        write(tenants(true, "", ""));
    }

    private static String tenants(boolean withSpareKey, String acmeOrigins, String extraOrganization) {
        return """
                organizations:
                  - id: acme
                    apiKeys: [%s]
                    domains:
                      - id: acme
                        docs: classpath:demo-docs
                        allowedOrigins: [%s]
                %s""".formatted(withSpareKey ? ACME_KEY + ", " + SPARE_KEY : ACME_KEY, acmeOrigins,
                extraOrganization);
    }

    private static void write(String content) {
        write(FILE, content);
    }

    /** Replaces the file at once, as a ConfigMap update does. */
    static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Path next = file.resolveSibling(file.getFileName() + ".next");
            Files.writeString(next, content);
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE); // as a ConfigMap update does
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void eventually(String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.call()) {
            assertTrue(System.nanoTime() < deadline, "not within 20 s: " + what);
            Thread.sleep(100);
        }
    }

    private int status(String domain, String key) throws Exception {
        return ask(domain, key, question("How do I run it?")).statusCode();
    }

    @Test
    void aRevokedKeyStopsWorkingWithoutARestartAndABrokenEditChangesNothing() throws Exception {
        assertEquals(200, status("acme", SPARE_KEY));

        write(tenants(false, "", ""));
        eventually("the spare key is revoked", () -> status("acme", SPARE_KEY) == 401);
        assertEquals(200, status("acme", ACME_KEY), "the other key still works");

        // Jackson quotes the bad value in its message: the log must show it masked
        write("organizations:\n  - id: acme\n    apiKeys: [" + SPARE_KEY + "]\n    rateLimitPerHour: " + SPARE_KEY + "\n");
        eventually("the broken edit is reported", () -> LOGS.lines().stream().anyMatch(line ->
                line.contains("still serving the previous configuration") && line.contains("mint_[redacted]")));
        assertEquals(200, status("acme", ACME_KEY), "the last good configuration stays in force");
        assertEquals(401, status("acme", SPARE_KEY), "the broken file did not bring the spare key back");

        write(tenants(true, "https://docs.acme.example", ""));
        eventually("the spare key is back", () -> status("acme", SPARE_KEY) == 200);
        HttpResponse<String> foreign = send(post("/v1/assistant/acme/message", ACME_KEY, question("Hi?"))
                .header("Origin", "https://evil.example"));
        assertEquals(403, foreign.statusCode(), "the new origin list applies at once");

        for (String line : LOGS.lines()) {
            assertFalse(line.contains(SPARE_KEY) || line.contains(ACME_KEY), "a key in the log: " + line);
        }
    }

    @Test
    void aDomainAddedToTheFileIsIndexedAndServed() throws Exception {
        assertEquals(401, status("acme", INITECH_KEY));
        write(tenants(true, "", """
                  - id: initech
                    apiKeys: [%s]
                    domains:
                      - id: initech
                        docs: classpath:demo-docs
                """.formatted(INITECH_KEY)));
        eventually("initech is served", () -> status("initech", INITECH_KEY) == 200);
        assertEquals(403, status("acme", INITECH_KEY), "its key is initech's alone");
    }
}
