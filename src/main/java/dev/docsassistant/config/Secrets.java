package dev.docsassistant.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Hashing and random tokens for keys, so no secret is ever kept or compared in plain text. */
public final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern THREAD_KEY = Pattern.compile("tk_[A-Za-z0-9_-]+");

    private Secrets() {
    }

    public static String sha256(String value) {
        return sha256(value.getBytes(StandardCharsets.UTF_8));
    }

    public static String sha256(byte[] value) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(value);
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** An unguessable URL-safe token of {@code bytes} random bytes. */
    public static String token(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    /** {@code text} with every assistant key ({@code keyPrefix…}) and thread key ({@code tk_…}) in it masked. */
    public static String redact(String text, String keyPrefix) {
        if (text == null) {
            return null;
        }
        String masked = keyPrefix.isEmpty() ? text
                : text.replaceAll(Pattern.quote(keyPrefix) + "[^\\s'\"`,;]*", Matcher.quoteReplacement(keyPrefix) + "[redacted]");
        return THREAD_KEY.matcher(masked).replaceAll("tk_[redacted]");
    }

    public static boolean sameHash(String hexA, String hexB) {
        return MessageDigest.isEqual(hexA.getBytes(StandardCharsets.US_ASCII), hexB.getBytes(StandardCharsets.US_ASCII));
    }
}
