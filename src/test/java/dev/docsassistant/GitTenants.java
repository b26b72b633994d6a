package dev.docsassistant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the Git and SSH source tests set up alike: a tenants file whose organization acme (the tests' public and admin
 * keys) has the domains given, and a class's static setup, whose checked failures fail the class's initialisation.
 */
final class GitTenants {

    private GitTenants() {
    }

    /** A class's static setup, which may do I/O and wait for processes, and what it makes (a server). */
    interface Setup<T> {
        T run() throws IOException, InterruptedException;
    }

    /** Runs a class's static setup, its I/O failures and interruptions rethrown unchecked. */
    static <T> T setUp(Setup<T> setup) {
        try {
            return setup.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes {@code home/tenants.yaml}: organization acme with {@code domains} (YAML list items, written from column
     * 0), then {@code organizations} (more list items from column 0, or empty).
     */
    static Path write(Path home, String domains, String organizations) throws IOException {
        return Files.writeString(home.resolve("tenants.yaml"), """
                organizations:
                  - id: acme
                    apiKeys: [%s]
                    adminKeys: [%s]
                    domains:
                """.formatted(ServiceTest.ACME_KEY, GitSyncTest.ADMIN_KEY) + domains.indent(6)
                + organizations.indent(2));
    }

    static Path write(Path home, String domains) throws IOException {
        return write(home, domains, "");
    }
}
