package dev.docsassistant;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.thread.ChatThread;
import dev.docsassistant.thread.ThreadStore;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestMethodOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hostile-input suite: well over 150 distinct bad requests against the live service, each of which must get a
 * clean 4xx problem+json answer (never a 5xx, a hang, a 200 stream or an echoed header). Afterwards the service
 * must still answer, no other tenant's thread may have been touched, and no log line may hold a secret.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants-hardened.yaml",
        "assistant.search.semantic=false", "assistant.request.max-messages=20", "assistant.request.max-text-chars=2000",
        "assistant.max-body-bytes=1048576",
        ServiceTest.UNLIMITED_ADDRESS_RATE,
        // traces on, taken only when the caller's traceparent says sampled, and exported (to nowhere) after the suite
        "otel.traces.exporter=otlp", "otel.exporter.otlp.endpoint=http://127.0.0.1:9", "otel.traces.sampler.arg=0",
        "otel.bsp.schedule.delay=600000"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostileInputTest extends ServiceTest {

    private static final CapturedLogs LOGS = CapturedLogs.capture();
    private static final String PROBE = "probe-7f3a9c";
    private static final String OK_MESSAGE = "{\"id\":\"m1\",\"role\":\"user\",\"content\":\"How do I run it?\","
            + "\"parts\":[{\"type\":\"text\",\"text\":\"How do I run it?\"}]}";
    private static final String OK_BODY = "{\"fp\":\"fp-test\",\"messages\":[" + OK_MESSAGE + "]}";
    private static final int MIB = 1024 * 1024;
    /** Any key a request presented (the prefix alone, as in the configuration summary, is no key). */
    private static final Pattern PRESENTED_KEY = Pattern.compile("mint_dsc_[A-Za-z0-9_-]");

    /** Threads created before the suite; the placeholders in the table name them. */
    private final Map<String, String> threads = new LinkedHashMap<>();
    private final Set<String> handedOutSecrets = new HashSet<>();
    private static int hostileRequests;

    /**
     * One bad request: where it goes, what it carries, what it must get. {@code raw} requests go over a plain
     * socket (a Content-Length whose body never comes, bytes HttpClient will not send).
     */
    record Hostile(String name, String method, String path, List<String> headers, byte[] body, boolean chunked,
                   String rawHead, int status, String code) {

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Hostile> hostileRequests() {
        List<Hostile> cases = new ArrayList<>();

        // Keys: missing, malformed, unknown, in the wrong place, or another organization's.
        cases.add(auth("no Authorization header", null, 401));
        cases.add(auth("Bearer with nothing", "Bearer", 401));
        cases.add(auth("Bearer and a space", "Bearer ", 401));
        cases.add(auth("Basic scheme", "Basic " + ACME_KEY, 401));
        cases.add(auth("Token scheme", "Token " + ACME_KEY, 401));
        cases.add(auth("the prefix alone", "Bearer mint_dsc_", 401));
        cases.add(auth("a secret API key, not an assistant key", "Bearer sk_live_123", 401));
        cases.add(auth("unknown assistant key", "Bearer mint_dsc_unknown", 401));
        cases.add(auth("known key with a suffix", "Bearer " + ACME_KEY + "x", 401));
        cases.add(auth("known key truncated", "Bearer " + ACME_KEY.substring(0, ACME_KEY.length() - 1), 401));
        cases.add(auth("known key in upper case", "Bearer " + ACME_KEY.toUpperCase(Locale.ROOT), 401));
        cases.add(auth("key with an inner space", "Bearer mint_dsc_acme test", 401));
        cases.add(auth("4,000-character key", "Bearer mint_dsc_" + "k".repeat(4_000), 401));
        cases.add(auth("the stored sha256 digest as key",
                "Bearer sha256:a756531221e60d4a5f0c4cd5eb375422b9b1b97f48c78e6ca7fcf7d6b3e575f4", 401));
        cases.add(auth("the digest with the prefix",
                "Bearer mint_dsc_a756531221e60d4a5f0c4cd5eb375422b9b1b97f48c78e6ca7fcf7d6b3e575f4", 401));
        cases.add(auth("non-ASCII key", "Bearer mint_dsc_\u00e9\u00e8", 401));
        cases.add(new Hostile("key in the query string", "POST",
                "/v1/assistant/acme/message?key=" + ACME_KEY, json(), body(OK_BODY), false, null, 401, "unauthorized"));
        cases.add(new Hostile("key in X-Api-Key", "POST", "/v1/assistant/acme/message",
                List.of("Content-Type", "application/json", "X-Api-Key", ACME_KEY), body(OK_BODY), false, null, 401,
                "unauthorized"));
        cases.add(new Hostile("two Authorization headers", "POST", "/v1/assistant/acme/message",
                List.of("Content-Type", "application/json", "Authorization", "Bearer mint_dsc_unknown",
                        "Authorization", "Bearer " + ACME_KEY), body(OK_BODY), false, null, 401, "unauthorized"));
        cases.add(post("acme key on globex's domain", "/v1/assistant/globex/message", ACME_KEY, OK_BODY, 403, "forbidden"));
        cases.add(post("globex key on acme's domain", "/v1/assistant/acme/message", GLOBEX_KEY, OK_BODY, 403, "forbidden"));
        cases.add(post("acme key on globex search", "/v1/search/globex", ACME_KEY, "{\"query\":\"port\"}", 403, "forbidden"));
        cases.add(post("globex key on acme page", "/v1/page/acme", GLOBEX_KEY, "{\"path\":\"/quickstart\"}", 403,
                "forbidden"));

        // The {domain} path segment.
        for (String[] domain : new String[][]{
                {"unknown domain", "nowhere", "404", "domain_not_found"},
                {"domain in other case", "ACME", "404", "domain_not_found"},
                {"dot-dot", "..", "404", "not_found"},
                {"encoded dot-dot", "%2e%2e", "404", "not_found"},
                {"encoded slash", "acme%2F..%2Fglobex", "400", "invalid_request"},
                {"encoded backslash", "acme%5C..%5Cglobex", "400", "invalid_request"},
                {"leading dot", ".acme", "400", "invalid_request"},
                {"leading dash", "-acme", "400", "invalid_request"},
                {"101 characters", "a".repeat(101), "400", "invalid_request"},
                {"1,000 characters", "a".repeat(1000), "400", "invalid_request"},
                {"encoded NUL", "acme%00", "400", "invalid_request"},
                {"encoded space", "%20acme", "400", "invalid_request"},
                {"encoded newline", "acme%0d%0aX-Injected:%20yes", "400", "invalid_request"},
                {"semicolon", "acme;x=1", "400", "invalid_request"},
                {"non-ASCII", "%C3%A1cme", "400", "invalid_request"},
                {"empty", "", "404", "not_found"},
                {"two segments", "acme/globex", "404", "not_found"}}) {
            cases.add(post("domain: " + domain[0], "/v1/assistant/" + domain[1] + "/message", ACME_KEY, OK_BODY,
                    Integer.parseInt(domain[2]), domain[3]));
        }

        cases.add(raw("domain: invalid percent-encoding", RawHttp.head("POST", "/v1/assistant/acme%ZZ/message",
                "Authorization: Bearer " + ACME_KEY, "Content-Type: application/json", "Content-Length: 0",
                "X-Probe: " + PROBE), 400, "invalid_request"));
        cases.add(raw("path: absolute URI of another host", RawHttp.head("POST",
                "http://evil.example/v1/assistant/acme/message", "Content-Type: application/json",
                "Content-Length: 0", "X-Probe: " + PROBE), 401, "unauthorized"));

        // Methods and paths no route takes.
        for (String method : List.of("GET", "PUT", "DELETE", "PATCH", "TRACE")) {
            cases.add(new Hostile(method + " on the message endpoint", method, "/v1/assistant/acme/message",
                    withKey(json()), method.equals("GET") || method.equals("TRACE") ? new byte[0] : body(OK_BODY),
                    false, null, 405, "method_not_allowed"));
        }
        cases.add(new Hostile("GET on search", "GET", "/v1/search/acme", withKey(json()), new byte[0], false, null,
                405, "method_not_allowed"));
        cases.add(new Hostile("DELETE on page", "DELETE", "/v1/page/acme", withKey(json()), new byte[0], false, null,
                405, "method_not_allowed"));
        for (String path : List.of("/v1/assistant", "/v1/assistant/acme", "/v1/assistant/acme/message/extra",
                "/v2/nothing/acme", "/.env", "/v1/assistant/acme/message/../../../etc/passwd",
                "/v1/assistant/acme/messages", "/V1/assistant/acme/message")) {
            cases.add(post("path " + path, path, ACME_KEY, OK_BODY, 404, "not_found"));
        }

        // Media types: only application/json is parsed.
        for (String type : List.of("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                "application/xml", "application/jsonx", "application/json-patch+json", "text/json", "json",
                "application/ json", "*/*")) {
            cases.add(new Hostile("Content-Type " + type, "POST", "/v1/assistant/acme/message",
                    withKey(List.of("Content-Type", type)), body(OK_BODY), false, null, 415, "unsupported_media_type"));
        }
        cases.add(new Hostile("no Content-Type", "POST", "/v1/assistant/acme/message", withKey(List.of()),
                body(OK_BODY), false, null, 415, "unsupported_media_type"));

        // Body size: 413 before the body is read, whether its length is declared or it comes chunked.
        byte[] big = padded(2 * MIB);
        cases.add(new Hostile("2 MiB body", "POST", "/v1/assistant/acme/message", withKey(json()), big, false, null,
                413, "body_too_large"));
        cases.add(new Hostile("2 MiB chunked body", "POST", "/v1/assistant/acme/message", withKey(json()), big, true,
                null, 413, "body_too_large"));
        cases.add(new Hostile("1 MiB + 1 byte body", "POST", "/v1/assistant/acme/message", withKey(json()),
                padded(MIB + 1), false, null, 413, "body_too_large"));
        cases.add(new Hostile("1 MiB + 1 byte chunked", "POST", "/v1/assistant/acme/message", withKey(json()),
                padded(MIB + 1), true, null, 413, "body_too_large"));
        cases.add(raw("Content-Length of 1 GiB and no body", RawHttp.head("POST", "/v1/assistant/acme/message",
                "Authorization: Bearer " + ACME_KEY, "Content-Type: application/json", "Content-Length: 1073741824",
                "X-Probe: " + PROBE), 413, "body_too_large"));
        // the key is checked before anything about the body
        cases.add(raw("huge body without a key", RawHttp.head("POST", "/v1/assistant/acme/message",
                "Content-Type: application/json", "Content-Length: 5000000", "X-Probe: " + PROBE), 401,
                "unauthorized"));

        // Not JSON, or not the JSON we take.
        for (String[] malformed : new String[][]{
                {"empty body", ""}, {"whitespace", "   "}, {"open brace", "{"}, {"close brace", "}"},
                {"missing value", "{\"fp\":}"}, {"an array", "[]"}, {"null", "null"}, {"a string", "\"hi\""},
                {"a number", "123"}, {"true", "true"}, {"trailing garbage", OK_BODY + " trailing"},
                {"two objects", OK_BODY + OK_BODY}, {"single quotes", "{'fp':'f'}"},
                {"a comment", "{/* c */\"fp\":\"f\"}"}, {"unquoted key", "{fp:\"f\"}"},
                {"trailing comma", "{\"fp\":\"f\",}"}, {"NaN", "{\"fp\":\"f\",\"retrievalPageSize\":NaN}"},
                {"unterminated string", "{\"fp\":\"f"}, {"bad escape", "{\"fp\":\"\\q\"}"},
                {"duplicate key", "{\"fp\":\"a\",\"fp\":\"b\",\"messages\":[" + OK_MESSAGE + "]}"},
                {"nesting 10,000 deep", "[".repeat(10_000) + "]".repeat(10_000)},
                {"nesting 100 deep in a field", "{\"fp\":\"f\",\"extra\":" + "[".repeat(100) + "]".repeat(100)
                        + ",\"messages\":[" + OK_MESSAGE + "]}"},
                {"a 2,000-digit number", "{\"fp\":\"f\",\"retrievalPageSize\":" + "9".repeat(2000) + "}"},
                {"raw NUL in a string", "{\"fp\":\"f\u0000\",\"messages\":[" + OK_MESSAGE + "]}"},
                {"raw newline in a string", "{\"fp\":\"f\nx\",\"messages\":[" + OK_MESSAGE + "]}"}}) {
            cases.add(post("malformed: " + malformed[0], "/v1/assistant/acme/message", ACME_KEY, malformed[1], 400,
                    "invalid_request"));
        }
        cases.add(new Hostile("invalid UTF-8 byte", "POST", "/v1/assistant/acme/message", withKey(json()),
                bytes("{\"fp\":\"f\u00ff\",\"messages\":[" + OK_MESSAGE + "]}", (byte) 0xC3, (byte) 0x28), false,
                null, 400, "invalid_request"));
        cases.add(new Hostile("overlong UTF-8 slash", "POST", "/v1/assistant/acme/message", withKey(json()),
                bytes("{\"fp\":\"f\u00ff\",\"messages\":[" + OK_MESSAGE + "]}", (byte) 0xC0, (byte) 0xAF), false,
                null, 400, "invalid_request"));
        cases.add(new Hostile("truncated UTF-8 sequence", "POST", "/v1/assistant/acme/message", withKey(json()),
                bytes("{\"fp\":\"f\u00ff\",\"messages\":[" + OK_MESSAGE + "]}", (byte) 0xE2, (byte) 0x82), false,
                null, 400, "invalid_request"));
        cases.add(new Hostile("Latin-1 byte in JSON", "POST", "/v1/assistant/acme/message",
                withKey(List.of("Content-Type", "application/json; charset=ISO-8859-1")),
                bytes("{\"fp\":\"f\u00ff\",\"messages\":[" + OK_MESSAGE + "]}", (byte) 0xE9), false, null, 400,
                "invalid_request"));

        // Wrong types, field by field: each 400 names the field.
        Map<String, List<String>> wrongTop = new LinkedHashMap<>();
        wrongTop.put("fp", List.of("1", "true", "[]", "{}", "1.5"));
        wrongTop.put("messages", List.of("1", "\"hi\"", "{}", "true", "[1]", "[\"m\"]", "[[]]"));
        wrongTop.put("threadId", List.of("1", "[]", "{}", "false"));
        wrongTop.put("threadKey", List.of("1", "[]", "{}"));
        wrongTop.put("retrievalPageSize", List.of("\"5\"", "1.5", "true", "[]", "{}"));
        wrongTop.put("filter", List.of("\"v2\"", "1", "[]", "true"));
        wrongTop.put("context", List.of("\"c\"", "1", "{}", "[1]", "[\"c\"]"));
        wrongTop.put("currentPath", List.of("1", "[]", "{}", "true"));
        wrongTop.forEach((field, values) -> values.forEach(value -> cases.add(post(field + " = " + value,
                "/v1/assistant/acme/message", ACME_KEY, withTop(field, value), 400, "invalid_request"))));
        Map<String, List<String>> wrongMessage = new LinkedHashMap<>();
        wrongMessage.put("id", List.of("1", "[]", "{}", "null", "\"\""));
        wrongMessage.put("role", List.of("1", "\"User\"", "\"admin\"", "\"tool\"", "\"\"", "null", "[]"));
        wrongMessage.put("content", List.of("1", "[]", "{}", "null", "true"));
        wrongMessage.put("parts", List.of("\"text\"", "{}", "1", "[1]", "[\"p\"]", "[null]"));
        wrongMessage.put("createdAt", List.of("1", "[]", "{}"));
        wrongMessage.forEach((field, values) -> values.forEach(value -> cases.add(post("message " + field + " = "
                + value, "/v1/assistant/acme/message", ACME_KEY, withMessage(field, value), 400, "invalid_request"))));
        for (String part : List.of("{\"type\":\"TEXT\",\"text\":\"q\"}", "{\"type\":\"image\"}", "{\"type\":\"\"}",
                "{\"type\":null,\"text\":\"q\"}", "{\"type\":1}", "{\"text\":\"q\"}", "{\"type\":\"text\"}",
                "{\"type\":\"text\",\"text\":1}", "{\"type\":\"text\",\"text\":[]}",
                "{\"type\":\"tool-invocation\",\"toolInvocation\":{\"state\":\"done\",\"toolCallId\":\"c\",\"toolName\":\"s\"}}",
                "{\"type\":\"tool-invocation\",\"toolInvocation\":{\"state\":\"call\",\"toolName\":\"s\"}}",
                "{\"type\":\"tool-invocation\"}",
                "{\"type\":\"source\",\"source\":{\"sourceType\":\"file\",\"id\":\"s\",\"url\":\"u\"}}",
                "{\"type\":\"source\",\"source\":{\"sourceType\":\"url\",\"id\":\"s\"}}",
                "{\"type\":\"reasoning\"}", "{\"type\":\"reasoning\",\"reasoning\":\"r\",\"details\":[{\"type\":\"x\"}]}",
                "{\"type\":\"file\",\"data\":\"d\"}")) {
            cases.add(post("part " + part, "/v1/assistant/acme/message", ACME_KEY, withMessage("parts", "[" + part + "]"),
                    400, "invalid_request"));
        }
        for (String item : List.of("{\"type\":\"image\",\"value\":\"v\"}", "{\"type\":\"code\"}",
                "{\"type\":\"code\",\"value\":1}", "{\"value\":\"v\"}", "null")) {
            cases.add(post("context item " + item, "/v1/assistant/acme/message", ACME_KEY,
                    withTop("context", "[" + item + "]"), 400, "invalid_request"));
        }

        // Rules and limits binding cannot express.
        String longText = "\"" + "x".repeat(2001) + "\"";
        for (String[] rule : new String[][]{
                {"fp blank", "fp", "\"  \""}, {"fp empty", "fp", "\"\""}, {"fp 201 characters", "fp", "\"" + "f".repeat(201) + "\""},
                {"fp with an escaped NUL", "fp", "\"f\\u0000\""}, {"messages empty", "messages", "[]"},
                {"21 messages", "messages", "[" + String.join(",", java.util.Collections.nCopies(21, OK_MESSAGE)) + "]"},
                {"last message from the assistant", "messages", "[{\"id\":\"1\",\"role\":\"assistant\",\"content\":\"hi\"}]"},
                {"last message blank", "messages", "[{\"id\":\"1\",\"role\":\"user\",\"content\":\"  \"}]"},
                {"retrievalPageSize 0", "retrievalPageSize", "0"}, {"retrievalPageSize 51", "retrievalPageSize", "51"},
                {"retrievalPageSize -1", "retrievalPageSize", "-1"},
                {"retrievalPageSize past int", "retrievalPageSize", "99999999999"},
                {"currentPath 201 characters", "currentPath", "\"/" + "p".repeat(200) + "\""},
                {"currentPath 10,000 characters", "currentPath", "\"/" + "p".repeat(10_000) + "\""},
                {"threadId 201 characters", "threadId", "\"thr_" + "t".repeat(197) + "\""},
                {"threadKey 201 characters", "threadKey", "\"tk_" + "k".repeat(198) + "\""},
                {"21 context items", "context", "[" + String.join(",",
                        java.util.Collections.nCopies(21, "{\"type\":\"code\",\"value\":\"v\"}")) + "]"},
                {"context value too long", "context", "[{\"type\":\"code\",\"value\":" + longText + "}]"}}) {
            cases.add(post("rule: " + rule[0], "/v1/assistant/acme/message", ACME_KEY, withTop(rule[1], rule[2]), 400,
                    "invalid_request"));
        }
        cases.add(post("rule: content too long", "/v1/assistant/acme/message", ACME_KEY,
                withMessage("content", longText), 400, "invalid_request"));
        cases.add(post("rule: text part too long", "/v1/assistant/acme/message", ACME_KEY,
                withMessage("parts", "[{\"type\":\"text\",\"text\":" + longText + "}]"), 400, "invalid_request"));
        cases.add(post("rule: escaped NUL in content", "/v1/assistant/acme/message", ACME_KEY,
                withMessage("content", "\"q\\u0000\""), 400, "invalid_request"));

        // Threads: a key sent that does not match is refused. (Another tenant's, another fp's or an unknown thread is
        // answered as a new thread: theSuiteIsLargeAndTheServiceStillAnswersAfterIt checks none of them is touched.)
        for (String[] thread : new String[][]{
                {"acme's thread with a wrong key", "{ACME_THREAD}", "tk_wrong", "fp-test"},
                {"acme's thread with globex's key", "{ACME_THREAD}", "{GLOBEX_THREAD_KEY}", "fp-test"}}) {
            ObjectNode request = (ObjectNode) parse(OK_BODY);
            request.put("fp", thread[3]).put("threadId", thread[1]).put("threadKey", thread[2]);
            cases.add(post("thread: " + thread[0], "/v1/assistant/acme/message", ACME_KEY, request.toString(), 404,
                    "thread_not_found"));
        }

        // Browsers on origins the domain does not allow: refused before any work, and unreadable by the page.
        for (String origin : List.of("https://evil.example", "https://acme.example.evil.example",
                "https://evilacme.example", "http://docs.acme.example", "https://docs.acme.example:8443", "null",
                "https://acme.example", "http://localhost:3001", "https://docs.acme.example.", "file://")) {
            cases.add(new Hostile("origin " + origin, "POST", "/v1/assistant/acme/message",
                    withKey(List.of("Content-Type", "application/json", "Origin", origin)), body(OK_BODY), false, null,
                    403, "origin_not_allowed"));
        }
        cases.add(new Hostile("preflight from a disallowed origin", "OPTIONS", "/v1/assistant/acme/message",
                List.of("Origin", "https://evil.example", "Access-Control-Request-Method", "POST"), new byte[0], false,
                null, 403, "origin_not_allowed"));
        cases.add(new Hostile("preflight for a path no route serves", "OPTIONS", "/v1/nothing/acme",
                List.of("Origin", "https://docs.acme.example", "Access-Control-Request-Method", "POST"), new byte[0],
                false, null, 404, "not_found"));

        // Discovery endpoints share the guards.
        for (String[] search : new String[][]{
                {"search without query", "/v1/search/acme", "{}"}, {"search query a number", "/v1/search/acme", "{\"query\":1}"},
                {"search pageSize 0", "/v1/search/acme", "{\"query\":\"q\",\"pageSize\":0}"},
                {"search threshold 2", "/v1/search/acme", "{\"query\":\"q\",\"scoreThreshold\":2}"},
                {"search query too long", "/v1/search/acme", "{\"query\":\"" + "q".repeat(2001) + "\"}"},
                {"page without path", "/v1/page/acme", "{}"},
                {"page path too long", "/v1/page/acme", "{\"path\":\"/" + "p".repeat(200) + "\"}"},
                {"page path NUL", "/v1/page/acme", "{\"path\":\"/a\\u0000\"}"}}) {
            cases.add(post(search[0], search[1], ACME_KEY, search[2], 400, "invalid_request"));
        }

        // Every other endpoint that reads a JSON body with the public key: the same guards, in the same order.
        for (String path : List.of("/v1/search/acme", "/v1/page/acme", "/v1/assistant/acme/feedback",
                "/v1/assistant/acme/feedback/page", "/v1/assistant/acme/feedback/code")) {
            cases.add(new Hostile(path + ": no key", "POST", path, json(), body("{}"), false, null, 401,
                    "unauthorized"));
            cases.add(post(path + ": malformed JSON", path, ACME_KEY, "{\"query\":", 400, "invalid_request"));
            cases.add(new Hostile(path + ": text/plain", "POST", path, withKey(List.of("Content-Type", "text/plain")),
                    body("{}"), false, null, 415, "unsupported_media_type"));
            cases.add(new Hostile(path + ": 2 MiB body", "POST", path, withKey(json()), big, false, null, 413,
                    "body_too_large"));
        }

        // Admin endpoints (analytics, threads, docs updates): only an organization's admin key, which acme has none
        // of, so whatever else the request carries is never looked at.
        for (String path : List.of("/v1/admin/acme/threads", "/v1/admin/acme/threads/thr_AAAAAAAAAAAAAAAAAAAAAA",
                "/v1/admin/acme/gaps", "/v1/analytics/acme/assistant",
                "/v1/analytics/acme/assistant/threads/thr_AAAAAAAAAAAAAAAAAAAAAA",
                "/v1/analytics/acme/assistant/caller-stats", "/v1/analytics/acme/feedback",
                "/v1/analytics/acme/feedback/by-page", "/v1/analytics/acme/searches", "/v1/analytics/acme/dashboard")) {
            cases.add(new Hostile(path + ": no key", "GET", path, List.of(), new byte[0], false, null, 401,
                    "unauthorized"));
            cases.add(new Hostile(path + ": the public key", "GET", path, withKey(List.of()), new byte[0], false,
                    null, 401, "unauthorized"));
            cases.add(new Hostile(path + ": an unknown admin key", "GET", path,
                    withKey(List.of(), "mint_adm_unknown_0123456789"), new byte[0], false, null, 401,
                    "unauthorized"));
        }
        String trigger = "/v1/project/update/acme";
        cases.add(new Hostile("trigger: no key", "POST", trigger, List.of(), new byte[0], false, null, 401,
                "unauthorized"));
        cases.add(new Hostile("trigger: the public key", "POST", trigger, withKey(List.of()), new byte[0], false,
                null, 401, "unauthorized"));
        cases.add(new Hostile("trigger: an unknown admin key, malformed JSON", "POST", trigger,
                withKey(json(), "mint_adm_unknown_0123456789"), body("{"), false, null, 401, "unauthorized"));
        cases.add(new Hostile("trigger: the public key, text/plain", "POST", trigger,
                withKey(List.of("Content-Type", "text/plain")), body("x"), false, null, 401, "unauthorized"));
        // the HTTP server's own limit comes first: the body is never read past it, key or not
        cases.add(new Hostile("trigger: the public key, 2 MiB body", "POST", trigger, withKey(json()), big, false,
                null, 413, "body_too_large"));
        cases.add(new Hostile("trigger: preflight from a disallowed origin", "OPTIONS", trigger,
                List.of("Origin", "https://evil.example", "Access-Control-Request-Method", "POST"), new byte[0], false,
                null, 403, "origin_not_allowed"));
        cases.add(new Hostile("trigger: GET", "GET", trigger, withKey(List.of()), new byte[0], false, null, 405,
                "method_not_allowed"));
        cases.add(post("trigger: unknown domain", "/v1/project/update/nowhere", ACME_KEY, "{}", 401, "unauthorized"));
        for (String[] status : new String[][]{{"unknown id", "AAAAAAAAAAAAAAAAAAAAAA", "404", "update_not_found"},
                {"1,000-character id", "a".repeat(1000), "404", "update_not_found"},
                {"encoded NUL", "a%00", "404", "update_not_found"},
                {"encoded slash", "a%2F..%2Fb", "404", "update_not_found"},
                {"two segments", "a/b", "404", "not_found"}}) {
            cases.add(new Hostile("update status: " + status[0], "GET", "/v1/project/update-status/" + status[1],
                    withKey(List.of()), new byte[0], false, null, Integer.parseInt(status[2]), status[3]));
        }
        String webhook = "/v1/project/webhook/acme";
        cases.add(new Hostile("webhook: unsigned", "POST", webhook, json(), body("{}"), false, null, 401,
                "unauthorized"));
        cases.add(new Hostile("webhook: a signature of nothing it holds", "POST", webhook,
                List.of("Content-Type", "application/json", "X-Hub-Signature-256", "sha256=" + "0".repeat(64)),
                body("{}"), false, null, 401, "unauthorized"));
        cases.add(new Hostile("webhook: a GitLab token", "POST", webhook,
                List.of("Content-Type", "application/json", "X-Gitlab-Token", "guess"), body("{}"), false, null, 401,
                "unauthorized"));
        // the signature is checked on the bytes as read, before anything of an unsigned body is parsed
        cases.add(new Hostile("webhook: malformed JSON", "POST", webhook, json(), body("{\"ref\":"), false, null,
                401, "unauthorized"));
        cases.add(new Hostile("webhook: text/plain", "POST", webhook, List.of("Content-Type", "text/plain"),
                body("{}"), false, null, 415, "unsupported_media_type"));
        cases.add(new Hostile("webhook: 2 MiB body", "POST", webhook, json(), big, false, null, 413,
                "body_too_large"));
        cases.add(new Hostile("webhook: 2 MiB chunked body", "POST", webhook, json(), big, true, null, 413,
                "body_too_large"));
        cases.add(new Hostile("webhook: unknown domain", "POST", "/v1/project/webhook/nowhere", json(), body("{}"),
                false, null, 401, "unauthorized"));
        return cases.stream();
    }

    /** A dynamic test per row: they share the one running service (a parameterized test would get its own). */
    @Order(1)
    @TestFactory
    Stream<DynamicTest> everyBadRequestGetsACleanProblem() {
        return hostileRequests().map(hostile -> DynamicTest.dynamicTest(hostile.name(), () -> check(hostile)));
    }

    private void check(Hostile hostile) throws Exception {
        hostileRequests++;
        RawHttp.Response response = send(hostile);

        assertTrue(response.status() >= 400 && response.status() < 500, hostile + " got " + response.status());
        assertEquals(hostile.status(), response.status(), hostile + ": " + response.body());
        assertEquals("application/problem+json", response.header("Content-Type"), hostile.name());
        JsonNode problem = JSON.readTree(response.body());
        assertEquals(hostile.status(), problem.get("status").asInt(), response.body());
        assertEquals(hostile.code(), problem.get("code").asText(), response.body());
        assertFalse(problem.get("detail").asText().isBlank(), response.body());
        assertEquals(problem.get("detail"), problem.get("message"), "useChat shows the message");
        assertNotNull(problem.get("title"), response.body());
        assertNull(response.header("X-Vercel-AI-Data-Stream"), "no stream for " + hostile);
        assertNotNull(response.header("X-Request-Id"), "every answer names its request");

        // Nothing the request carried comes back: no header, no key, no probe.
        for (var header : response.headers().entrySet()) {
            assertFalse(header.getKey().equalsIgnoreCase("x-probe") || header.getKey().equalsIgnoreCase("authorization")
                    || header.getKey().equalsIgnoreCase("x-api-key"), "echoed header " + header.getKey());
            for (String value : header.getValue()) {
                assertFalse(value.contains(PROBE) || value.contains("mint_dsc_") || value.contains("tk_"),
                        "echoed value in " + header);
            }
        }
        assertFalse(response.body().contains(PROBE), response.body());
        assertFalse(response.body().contains(ACME_KEY) || response.body().contains("mint_dsc_unknown"),
                "a key in " + response.body());
        for (String secret : threads.values()) {
            assertFalse(response.body().contains(secret), "a thread id or key in " + response.body());
        }
    }

    @Order(2)
    @Test
    void headersOverTheCodecsLimitAreRefusedWithoutEcho() throws Exception {
        // Vert.x's HTTP codec refuses headers over 8 KB itself, before any handler: 431, nothing echoed.
        RawHttp.Response response = RawHttp.send(null, uri("/").getPort(), RawHttp.head("POST",
                "/v1/assistant/acme/message", "Authorization: Bearer mint_dsc_" + "k".repeat(10_000),
                "Content-Type: application/json", "Content-Length: 0", "X-Probe: " + PROBE), new byte[0]);
        assertEquals(431, response.status());
        assertFalse(response.body().contains("mint_dsc_") || response.body().contains(PROBE), response.body());
        assertNull(response.header("X-Probe"));
    }

    @Order(2)
    @Test
    void aBodyJustUnderTheLimitIsRead() throws Exception {
        HttpResponse<String> answer = send(HttpRequest.newBuilder(uri("/v1/assistant/acme/message"))
                .timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer " + ACME_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(padded(MIB))));
        assertEquals(200, answer.statusCode(), answer.body());
    }

    /**
     * Any client can have its request traced (a traceparent with the sampled flag): an error of a traced request is
     * answered as any other, in problem+json, and logs no error of ours (the suite's last test reads the log).
     */
    @Order(2)
    @Test
    void aTracedRequestThatFailsGetsItsProblem() throws Exception {
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        for (Hostile hostile : List.of(
                auth("no Authorization header", null, 401),
                post("unknown domain", "/v1/assistant/nowhere/message", ACME_KEY, OK_BODY, 404, "domain_not_found"),
                post("bad body", "/v1/search/acme", ACME_KEY, "{}", 400, "invalid_request"),
                post("feedback without a thread", "/v1/assistant/acme/feedback", ACME_KEY, "{}", 400,
                        "invalid_request"),
                new Hostile("admin with the public key", "GET", "/v1/admin/acme/threads", withKey(List.of()),
                        new byte[0], false, null, 401, "unauthorized"))) {
            List<String> headers = new ArrayList<>(hostile.headers());
            headers.addAll(List.of("traceparent", traceparent));
            check(new Hostile("traced: " + hostile.name(), hostile.method(), hostile.path(), headers, hostile.body(),
                    false, null, hostile.status(), hostile.code()));
        }
    }

    /**
     * A chunked body the HTTP decoder cannot frame (a chunk size past 64 bits, a size line ending in a bare LF, a good
     * chunk then a bad size): the connection is closed, and the request ends with it, on every endpoint that reads a
     * body. More of them than the address's open-request places: none is kept, no thread waits on a body.
     */
    @Order(2)
    @Test
    void aMalformedChunkedBodyEndsItsRequest() throws Exception {
        assertEquals(200, send(post("/v1/search/acme", ACME_KEY, "{\"query\":\"port\"}")).statusCode());
        int baseline = Thread.activeCount();
        List<String> bodies = List.of("ffffffffffffffffff1\r\n{}\r\n0\r\n\r\n", "2\n{}\r\n0\r\n\r\n",
                "2\r\n{}\r\nzz\r\n");
        int sent = 0;
        for (String path : List.of("/v1/search/acme", "/v1/assistant/acme/message", "/v1/assistant/acme/feedback")) {
            for (String body : bodies) {
                for (int i = 0; i < 3; i++, sent++) {
                    String head = RawHttp.head("POST", path, "Authorization: Bearer " + ACME_KEY,
                            "Content-Type: application/json", "Transfer-Encoding: chunked");
                    assertNotNull(RawHttp.untilClosed(uri("/").getPort(), head + body), path + " kept " + body);
                }
            }
        }
        assertTrue(sent > 20, "more than the address's 20 places");
        awaitNoThreadReadingABody();
        HttpResponse<String> after = send(post("/v1/search/acme", ACME_KEY, "{\"query\":\"port\"}"));
        assertEquals(200, after.statusCode(), "the address is served again: " + after.body());
        assertTrue(Thread.activeCount() <= baseline + 4, Thread.activeCount() + " threads, " + baseline + " before");
    }

    /**
     * A body that could be framed two ways (RFC 9112 §6.1): both lengths, or a transfer coding other than chunked
     * alone. 400 problem+json and the connection closed: the request pipelined behind it is not answered.
     */
    @Order(2)
    @Test
    void ambiguousFramingIsRefusedAndTheConnectionClosed() throws Exception {
        String body = "{\"query\":\"port\"}";
        String chunked = Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
        String next = RawHttp.head("GET", "/openapi.json");
        for (String[] framing : new String[][]{
                {"Content-Length: " + chunked.length(), "Transfer-Encoding: chunked", chunked},
                {"Transfer-Encoding: chunked", "Content-Length: " + body.length(), chunked},
                {"Content-Length: " + body.length(), "Transfer-Encoding: xchunked", body},
                {"Content-Length: " + chunked.length(), "Transfer-Encoding: gzip, chunked", chunked},
                {"Transfer-Encoding: chunked", "Transfer-Encoding: chunked", chunked}}) {
            String head = RawHttp.head("POST", "/v1/search/acme", "Authorization: Bearer " + ACME_KEY,
                    "Content-Type: application/json", framing[0], framing[1]);
            String answered = RawHttp.untilClosed(uri("/").getPort(), head + framing[2] + next);
            assertNotNull(answered, framing[0] + ", " + framing[1] + ": the connection was kept");
            assertTrue(answered.startsWith("HTTP/1.1 400 "), answered);
            assertEquals(1, answered.split("HTTP/1\\.1 ", -1).length - 1, "one answer: " + answered);
            assertTrue(answered.contains("application/problem+json") && answered.contains("\"code\":\"invalid_request\""),
                    answered);
        }
        // one framing, as clients send it, still works on its own
        assertEquals(200, send(post("/v1/search/acme", ACME_KEY, body)).statusCode());
    }

    /**
     * HTTP/2 cleartext is off (assistant.http.h2c-enabled): its streams would escape the request deadline. The
     * preface closes the connection with nothing answered; an Upgrade: h2c is answered over HTTP/1.1.
     */
    @Order(2)
    @Test
    void http2CleartextIsNotSpoken() throws Exception {
        String preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
        String emptySettings = "\0\0\0\4\0\0\0\0\0";
        assertEquals("", RawHttp.untilClosed(uri("/").getPort(), preface + emptySettings), "closed, nothing answered");

        RawHttp.Response upgraded = RawHttp.send(null, uri("/").getPort(), RawHttp.head("GET", "/openapi.json",
                "Connection: Upgrade, HTTP2-Settings", "Upgrade: h2c", "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA"),
                new byte[0]);
        assertEquals(200, upgraded.status(), "no 101 Switching Protocols");
        assertNull(upgraded.header("Upgrade"));
    }

    /** Waits (a bounded while: closing is asynchronous) until no thread of the service waits on a request body. */
    private static void awaitNoThreadReadingABody() throws InterruptedException {
        List<String> reading = List.of();
        for (int attempt = 0; attempt < 100; attempt++) {
            reading = Thread.getAllStackTraces().entrySet().stream()
                    .filter(thread -> Stream.of(thread.getValue()).anyMatch(frame ->
                            frame.getClassName().endsWith("RequireJsonBody") && frame.getMethodName().equals("read")))
                    .map(thread -> thread.getKey().getName()).toList();
            if (reading.isEmpty()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("threads still waiting on a body: " + reading);
    }

    @Order(3)
    @Test
    void theSuiteIsLargeAndTheServiceStillAnswersAfterIt() throws Exception {
        assertTrue(hostileRequests >= 150, "only " + hostileRequests + " hostile requests ran");
        HttpResponse<String> answer = send(post("/v1/assistant/acme/message", ACME_KEY, OK_BODY));
        assertEquals(200, answer.statusCode(), answer.body());
        List<Part> parts = parts(answer.body());
        assertEquals("d", parts.get(parts.size() - 1).code(), answer.body());
        handedOutSecrets.add(answer.headers().firstValue("X-Thread-Key").orElseThrow());

        // Someone else's thread, or one that does not exist, is answered as a new thread and never touched.
        for (String[] thread : new String[][]{
                {"thr_AAAAAAAAAAAAAAAAAAAAAA", "{ACME_THREAD_KEY}", "fp-test"},
                {"{GLOBEX_THREAD}", "{GLOBEX_THREAD_KEY}", "fp-test"},
                {"{ACME_THREAD}", "{ACME_THREAD_KEY}", "fp-other"},
                {"{ACME_THREAD_UPPER}", "{ACME_THREAD_KEY}", "fp-test"},
                {"{ACME_THREAD_KEY}", "{ACME_THREAD_KEY}", "fp-test"}}) {
            String threadId = threads().getOrDefault(thread[0], thread[0]);
            String foreign = ((ObjectNode) parse(OK_BODY)).put("fp", thread[2]).put("threadId", threadId)
                    .put("threadKey", threads().get(thread[1])).toString();
            HttpResponse<String> started = send(post("/v1/assistant/acme/message", ACME_KEY, foreign));
            assertEquals(200, started.statusCode(), started.body());
            assertNotEquals(threadId, started.headers().firstValue("X-Thread-Id").orElseThrow(), "a new thread");
            handedOutSecrets.add(started.headers().firstValue("X-Thread-Key").orElseThrow());
        }

        // The threads the suite attacked are intact and still their owners'.
        ThreadStore store = context.getRegistry().lookupByNameAndType("threadStore", ThreadStore.class);
        ChatThread globex = store.find(threads().get("{GLOBEX_THREAD}")).orElseThrow();
        assertEquals("globex", globex.organizationId());
        assertEquals(1, globex.turns().size(), "no one else added to globex's thread");
        ChatThread acme = store.find(threads().get("{ACME_THREAD}")).orElseThrow();
        assertEquals(1, acme.turns().size(), "no refused request added to acme's thread");
        String continued = ((ObjectNode) parse(OK_BODY)).put("threadId", threads().get("{ACME_THREAD}"))
                .put("threadKey", threads().get("{ACME_THREAD_KEY}")).toString();
        assertEquals(200, send(post("/v1/assistant/acme/message", ACME_KEY, continued)).statusCode(),
                "the owner still continues its thread");
    }

    @Order(4)
    @Test
    void theLogsHoldOneLinePerRequestAndNoSecret() {
        List<String> access = LOGS.access();
        assertTrue(access.size() >= hostileRequests, access.size() + " access lines for " + hostileRequests);
        for (String line : access) {
            JsonNode fields = parse(line);
            for (String field : List.of("requestId", "method", "status", "latencyMs", "bytesIn", "bytesOut")) {
                assertTrue(fields.has(field), field + " in " + line);
            }
        }
        Set<String> secrets = new HashSet<>(handedOutSecrets);
        secrets.addAll(List.of(ACME_KEY, GLOBEX_KEY, "mint_dsc_acme_spare", "mint_dsc_unknown", "sk_live_123",
                "Bearer ", PROBE));
        secrets.add(threads().get("{ACME_THREAD_KEY}"));
        secrets.add(threads().get("{GLOBEX_THREAD_KEY}"));
        for (String line : LOGS.lines()) {
            assertFalse(line.startsWith("ERROR"), "a bad request is no error of ours: " + line);
            for (String secret : secrets) {
                assertFalse(line.contains(secret), "a secret in the log: " + line);
            }
            assertFalse(PRESENTED_KEY.matcher(line).find(), "a presented key in the log: " + line);
        }
    }

    // --- sending

    private RawHttp.Response send(Hostile hostile) throws Exception {
        if (hostile.rawHead() != null) {
            return RawHttp.send(null, uri("/").getPort(), hostile.rawHead(), new byte[0]);
        }
        HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.ofByteArray(resolve(hostile.body()));
        if (hostile.chunked()) {
            body = HttpRequest.BodyPublishers.fromPublisher(body); // no length: sent chunked
        }
        String path = new String(resolve(hostile.path().getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10))
                .method(hostile.method(), body).header("X-Probe", PROBE);
        for (int i = 0; i < hostile.headers().size(); i += 2) {
            request.header(hostile.headers().get(i), hostile.headers().get(i + 1));
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException stale) {
            // The client sent it on a pooled connection the service had just closed (idle), and it retries no
            // POST: once more on a connection of its own. A request that itself ends its connection without an
            // answer fails here again. (A refusal before a large body is read is no such case: the service drops
            // the rest of the body before it closes, RefusedBeforeTheBodyTest.)
            response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
        return new RawHttp.Response(response.statusCode(), lowerCase(response.headers().map()), response.body());
    }

    private static Map<String, List<String>> lowerCase(Map<String, List<String>> headers) {
        Map<String, List<String>> lower = new LinkedHashMap<>();
        headers.forEach((name, values) -> lower.put(name.toLowerCase(Locale.ROOT), values));
        return lower;
    }

    /** Replaces the thread placeholders with the threads created for the suite. */
    private byte[] resolve(byte[] body) throws Exception {
        if (body.length > 100_000) {
            return body;
        }
        String text = new String(body, StandardCharsets.ISO_8859_1);
        if (!text.contains("{ACME_") && !text.contains("{GLOBEX_")) {
            return body;
        }
        for (var thread : threads().entrySet()) {
            text = text.replace(thread.getKey(), thread.getValue());
        }
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** One thread per organization, made by real requests before the first thread case. */
    private Map<String, String> threads() {
        if (threads.isEmpty()) {
            try {
                HttpResponse<String> acme = send(post("/v1/assistant/acme/message", ACME_KEY, OK_BODY));
                HttpResponse<String> globex = send(post("/v1/assistant/globex/message", GLOBEX_KEY, OK_BODY));
                threads.put("{ACME_THREAD}", acme.headers().firstValue("X-Thread-Id").orElseThrow());
                threads.put("{ACME_THREAD_UPPER}", threads.get("{ACME_THREAD}").toUpperCase(Locale.ROOT));
                threads.put("{ACME_THREAD_KEY}", acme.headers().firstValue("X-Thread-Key").orElseThrow());
                threads.put("{GLOBEX_THREAD}", globex.headers().firstValue("X-Thread-Id").orElseThrow());
                threads.put("{GLOBEX_THREAD_KEY}", globex.headers().firstValue("X-Thread-Key").orElseThrow());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return threads;
    }

    // --- building the table

    private static Hostile auth(String name, String authorization, int status) {
        List<String> headers = new ArrayList<>(json());
        if (authorization != null) {
            headers.addAll(List.of("Authorization", authorization));
        }
        return new Hostile("key: " + name, "POST", "/v1/assistant/acme/message", headers, body(OK_BODY), false, null,
                status, "unauthorized");
    }

    private static Hostile post(String name, String path, String key, String body, int status, String code) {
        return new Hostile(name, "POST", path, withKey(json(), key), body(body), false, null, status, code);
    }

    private static Hostile raw(String name, String head, int status, String code) {
        return new Hostile(name, "POST", null, List.of(), new byte[0], false, head, status, code);
    }

    private static List<String> json() {
        return List.of("Content-Type", "application/json");
    }

    private static List<String> withKey(List<String> headers) {
        return withKey(headers, ACME_KEY);
    }

    private static List<String> withKey(List<String> headers, String key) {
        List<String> all = new ArrayList<>(headers);
        all.addAll(List.of("Authorization", "Bearer " + key));
        return all;
    }

    private static byte[] body(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code template} (with one ÿ) as UTF-8, the ÿ replaced by raw {@code bytes}. */
    private static byte[] bytes(String template, byte... bytes) {
        String[] halves = template.split("\u00ff", 2);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(body(halves[0]));
        out.writeBytes(bytes);
        out.writeBytes(body(halves[1]));
        return out.toByteArray();
    }

    /** A valid body padded with a long field to {@code size} bytes. */
    private static byte[] padded(int size) {
        String head = "{\"fp\":\"f\",\"messages\":[" + OK_MESSAGE + "],\"pad\":\"";
        return body(head + "x".repeat(size - head.length() - 2) + "\"}");
    }

    private static String withTop(String field, String rawValue) {
        ObjectNode body = (ObjectNode) parse(OK_BODY);
        body.set(field, parse(rawValue));
        return body.toString();
    }

    private static String withMessage(String field, String rawValue) {
        ObjectNode body = (ObjectNode) parse(OK_BODY);
        ((ObjectNode) body.get("messages").get(0)).set(field, parse(rawValue));
        return body.toString();
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

}
