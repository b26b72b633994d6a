package dev.docsassistant.config;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.docsassistant.ground.Secrets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** adminKeys in the tenants file: plain or hashed, never a public key, revoked by a reload, never quoted in errors. */
class TenantsAdminKeysTest {

    private static final String ADMIN = "mint_adm_acme_0123456789abcdef";
    private static final String SPARE = "mint_adm_acme_spare_0123456789";

    @TempDir
    Path dir;

    private Path write(String adminKeys) throws Exception {
        Path file = dir.resolve("tenants.yaml");
        Files.writeString(file, """
                organizations:
                  - id: acme
                    apiKeys: [mint_dsc_acme_test]
                    adminKeys: [%s]
                    domains:
                      - id: acme
                        docs: classpath:demo-docs
                """.formatted(adminKeys));
        return file;
    }

    @Test
    void adminKeysArePlainOrHashedAndRevokedByAReload() throws Exception {
        Path file = write(ADMIN + ", \"sha256:" + Secrets.sha256(SPARE) + "\"");
        Tenants tenants = Tenants.load(file.toString(), "", "mint_dsc_");
        assertEquals("acme", tenants.organizationForAdminKey(ADMIN).id());
        assertEquals("acme", tenants.organizationForAdminKey(SPARE).id());
        assertNull(tenants.organizationForAdminKey("mint_dsc_acme_test"), "a public key is not an admin key");
        assertNull(tenants.organizationForKey(ADMIN), "an admin key is not a public key");

        write(ADMIN);
        assertTrue(tenants.reload());
        assertNull(tenants.organizationForAdminKey(SPARE), "revoked without a restart");
        assertEquals("acme", tenants.organizationForAdminKey(ADMIN).id());
    }

    @Test
    void anAdminKeyIsNeverAPublicKeyNorQuotedInAnError() throws Exception {
        IllegalArgumentException reused = assertThrows(IllegalArgumentException.class,
                () -> Tenants.load(write("\"sha256:" + Secrets.sha256("mint_dsc_acme_test") + "\"").toString(), "",
                        "mint_dsc_"));
        assertTrue(reused.getMessage().contains("also a public key"), reused.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Tenants.load(write("short").toString(), "", "mint_dsc_"), "a guessable key is refused");

        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "organizations:\n  - id: acme\n    apiKeys: [mint_dsc_acme_test]\n"
                + "    rateLimitPerHour: " + ADMIN + "\n");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> Tenants.load(broken.toString(), "", "mint_dsc_"));
        assertFalse(error.getMessage().contains(ADMIN), error.getMessage());
        assertTrue(error.getMessage().contains("mint_[redacted]"), error.getMessage());
    }

    /** Mintlify's admin keys begin with mint_ (its API introduction); a public key's mint_dsc_ never makes one. */
    @Test
    void anyMintKeyButAPublicOneIsAnAdminKey() throws Exception {
        String mintlifyKey = "mint_X9aBcDeFgHiJkLmNoP";
        String publicShaped = "mint_dsc_not_listed_as_public_0123";
        Tenants tenants = Tenants.load(write(mintlifyKey + ", \"sha256:" + Secrets.sha256(publicShaped) + "\"")
                .toString(), "", "mint_dsc_");
        assertEquals("acme", tenants.organizationForAdminKey(mintlifyKey).id());
        assertNull(tenants.organizationForAdminKey(publicShaped), "a mint_dsc_ key is never an admin key, hashed too");
        IllegalArgumentException plain = assertThrows(IllegalArgumentException.class,
                () -> Tenants.load(write(publicShaped).toString(), "", "mint_dsc_"));
        assertFalse(plain.getMessage().contains(publicShaped), plain.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Tenants.load(write("sk_live_0123456789abcdef0123").toString(), "", "mint_dsc_"),
                "a key without Mintlify's prefix is refused");
    }
}
