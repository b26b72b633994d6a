package dev.docsassistant.sources;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.docsassistant.auth.UnauthorizedException;

/**
 * A push webhook's proof that it comes from the repository's host: GitHub's {@code X-Hub-Signature-256}
 * ({@code sha256=} and the HMAC-SHA256 of the raw body under the shared secret) or GitLab's {@code X-Gitlab-Token}
 * (the secret itself), each checked against its own secret only (a domain's {@code webhookSecret} for GitHub, its
 * {@code gitlabToken} for GitLab), so a token GitLab sends in the clear never signs as GitHub. Compared in constant
 * time; anything unsigned, wrongly signed, or for a domain with no such secret (or a blank one, or the shipped
 * placeholder {@code replace-with-…}) is refused alike, so a caller learns nothing about which it was.
 */
public final class WebhookSignature {

    private static final String SHA256 = "sha256=";
    /** How the shipped examples' placeholder secrets begin (k8s/overlays/demo/secrets/git). */
    private static final String PLACEHOLDER = "replace-with-";

    private WebhookSignature() {
    }

    /** @throws UnauthorizedException unless one of the headers proves {@code body} was sent with the secret */
    public static void verify(String githubSecretName, String gitlabSecretName, String githubSignature,
            String gitlabToken, byte[] body) {
        check(githubSecretName, gitlabSecretName, githubSignature, gitlabToken, body);
    }

    /**
     * What can be checked before the body is read, so that only a body that may be signed is: GitLab's token in full,
     * and that a GitHub signature comes for a domain with a GitHub secret (its HMAC needs the body: {@link #verify}).
     *
     * @throws UnauthorizedException as {@link #verify} would, for all it refuses without the body
     */
    public static void verifyHeaders(String githubSecretName, String gitlabSecretName, String githubSignature,
            String gitlabToken) {
        check(githubSecretName, gitlabSecretName, githubSignature, gitlabToken, null);
    }

    /** {@code body} null: a GitHub signature is taken as valid if there is a secret to check it with later. */
    private static void check(String githubSecretName, String gitlabSecretName, String githubSignature,
            String gitlabToken, byte[] body) {
        boolean valid = false;
        if (githubSignature != null && githubSignature.startsWith(SHA256)) {
            String secret = secret(githubSecretName);
            valid = secret != null && (body == null || MessageDigest.isEqual(
                    hmac(secret, body).getBytes(StandardCharsets.US_ASCII),
                    githubSignature.substring(SHA256.length()).getBytes(StandardCharsets.US_ASCII)));
        } else if (gitlabToken != null) {
            String secret = secret(gitlabSecretName);
            valid = secret != null && MessageDigest.isEqual(secret.getBytes(StandardCharsets.UTF_8),
                    gitlabToken.getBytes(StandardCharsets.UTF_8));
        }
        if (!valid) {
            throw new UnauthorizedException("The webhook is not signed with this domain's webhook secret");
        }
    }

    /** The named secret, or null when it is none, unreadable, blank or the shipped placeholder (all sign nothing). */
    private static String secret(String name) {
        String secret;
        try {
            secret = name == null ? null : SourceSecrets.read(name);
        } catch (IOException e) {
            return null; // a secret that cannot be read refuses every call: fail closed
        }
        return secret == null || secret.isBlank() || secret.startsWith(PLACEHOLDER) ? null : secret;
    }

    /** The HMAC-SHA256 of {@code body} under {@code secret}, in lower-case hex as GitHub sends it. */
    public static String hmac(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
