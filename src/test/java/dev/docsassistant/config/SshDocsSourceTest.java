package dev.docsassistant.config;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code docs: {git: <ssh url>, sshKey: <file>, knownHosts: <file>}} in the tenants file: both files are named,
 * resolved against the tenants file and readable at load, or the load fails saying which; a key pasted in place of a
 * file name is refused without being quoted.
 */
class SshDocsSourceTest {

    private static final String KEY_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW";

    @TempDir
    Path dir;

    private Tenants load(String docs) throws Exception {
        Path file = dir.resolve("tenants.yaml");
        Files.writeString(file, """
                organizations:
                  - id: acme
                    apiKeys: [mint_dsc_acme_test]
                    domains:
                      - id: acme
                        docs: %s
                """.formatted(docs));
        return Tenants.load(file.toString(), "", "mint_dsc_");
    }

    private String refused(String docs) {
        return assertThrows(IllegalArgumentException.class, () -> load(docs), docs).getMessage();
    }

    @Test
    void sshUrlsTakeAKeyFileAndAKnownHostsFileResolvedAgainstTheTenantsFile() throws Exception {
        Files.createDirectories(dir.resolve("keys"));
        Files.writeString(dir.resolve("keys/deploy-key"), "key");
        Files.writeString(dir.resolve("keys/known_hosts"), "hosts");
        DocsSource ssh = load("{git: \"ssh://git@git.example:2222/acme/docs.git\", sshKey: ./keys/deploy-key, "
                + "knownHosts: keys/known_hosts}").tenant("acme").domain().docs();
        assertTrue(ssh.isSsh());
        assertEquals(dir.resolve("keys/deploy-key").toString(), ssh.sshKey());
        assertEquals(dir.resolve("keys/known_hosts").toString(), ssh.knownHosts());
        assertEquals("ssh://git.example:2222/acme/docs.git@main", ssh.toString(), "no user name in logs either");

        DocsSource scpLike = load("{git: \"git@github.com:acme/docs.git\", sshKey: ./keys/deploy-key, "
                + "knownHosts: ./keys/known_hosts}").tenant("acme").domain().docs();
        assertTrue(scpLike.isSsh(), "the scp-like form git@host:path is SSH too");
    }

    @Test
    void aTokenPastedInPlaceOfASecretsNameIsRefusedUnquoted() throws Exception {
        for (String pasted : new String[] {"ghp_16C7e42F292c6912E7710c838347Ae178B4a", "glpat-xKz8Q2fTbn3vY1aWc9dE"}) {
            for (String option : new String[] {"credentials", "webhookSecret", "gitlabToken"}) {
                String refused = refused("{git: \"https://git.example/docs.git\", " + option + ": " + pasted + "}");
                assertTrue(refused.contains("name a secret, never hold it"), refused);
                assertFalse(refused.contains(pasted.substring(6)), "the token is not quoted: " + refused);
            }
        }
    }

    @Test
    void oneSecretNeverServesBothGithubAndGitlab() throws Exception {
        assertTrue(refused("{git: \"https://git.example/docs.git\", webhookSecret: HOOK, gitlabToken: HOOK}")
                .contains("must name different secrets"));
    }

    @Test
    void anSshUrlWithoutReadableFilesOrWithAPasswordIsAConfigErrorAtLoad() throws Exception {
        Files.writeString(dir.resolve("deploy-key"), "key");
        Files.writeString(dir.resolve("known_hosts"), "hosts");
        assertTrue(refused("{git: \"ssh://git@git.example/docs.git\", knownHosts: ./known_hosts}")
                .contains("needs sshKey"));
        assertTrue(refused("{git: \"ssh://git@git.example/docs.git\", sshKey: ./deploy-key}")
                .contains("knownHosts"), "no known_hosts file: never trust on first use");
        String missing = refused("{git: \"ssh://git@git.example/docs.git\", sshKey: ./gone, "
                + "knownHosts: ./known_hosts}");
        assertTrue(missing.contains("domain 'acme'") && missing.contains("sshKey '" + dir.resolve("gone")
                + "' is not a readable file"), missing);
        assertTrue(refused("{git: \"ssh://git@git.example/docs.git\", sshKey: ./deploy-key, knownHosts: ./nope}")
                .contains("knownHosts '" + dir.resolve("nope") + "' is not a readable file"));
        assertTrue(refused("{git: \"ssh://git@git.example/docs.git\", sshKey: ./deploy-key, "
                + "knownHosts: ./known_hosts, credentials: GIT_TOKEN}").contains("credentials are for https"));
        String password = refused("{git: \"ssh://git:hunter2@git.example/docs.git\", sshKey: ./deploy-key, "
                + "knownHosts: ./known_hosts}");
        assertFalse(password.contains("hunter2"), password);
        assertTrue(refused("{git: \"https://git.example/docs.git\", sshKey: ./deploy-key}")
                .contains("sshKey and knownHosts are for SSH git URLs"));
        assertTrue(refused("{site: \"https://docs.example\", knownHosts: ./known_hosts}")
                .contains("a docs site takes no"));
    }

    @Test
    void aKeyPastedInPlaceOfItsFileNameIsRefusedWithoutBeingQuoted() {
        String pasted = "\"-----BEGIN OPENSSH PRIVATE KEY-----\\n" + KEY_BODY
                + "\\n-----END OPENSSH PRIVATE KEY-----\"";
        String error = refused("{git: \"ssh://git@git.example/docs.git\", sshKey: " + pasted
                + ", knownHosts: ./known_hosts}");
        assertTrue(error.contains("sshKey must name a file"), error);
        assertFalse(error.contains(KEY_BODY), error);
        String alsoBroken = refused("{git: \"ssh://git@git.example/docs.git\", sshKey: " + pasted + "}");
        assertFalse(alsoBroken.contains(KEY_BODY), "another error in the same source quotes no key: " + alsoBroken);
    }
}
