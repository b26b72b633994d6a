package dev.docsassistant.ground;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/** Hashing and random tokens for keys, so no secret is ever kept or compared in plain text. */
public final class Secrets {

    /**
     * Independent generators, one picked at random per token, so concurrent requests do not queue on one lock: the
     * default (NativePRNG) serializes every caller on a global one, which showed as 8 % of the CPU under load.
     */
    private static final SecureRandom[] RANDOMS = IntStream.range(0, 2 * Runtime.getRuntime().availableProcessors())
            .mapToObj(i -> drbg()).toArray(SecureRandom[]::new);
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
        RANDOMS[ThreadLocalRandom.current().nextInt(RANDOMS.length)].nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    /**
     * An id of {@code bytes} random bytes, in hex, that is unique but need not be unguessable (a message, step or
     * request id: it grants nothing), so it costs no secure generator. Hex, so it never looks like a key to
     * {@link #redact} (a base64 id may contain {@code tk_}).
     */
    public static String id(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    private static SecureRandom drbg() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("DRBG is part of every JDK since 9", e);
        }
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
