package dev.docsassistant;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.analytics.RecordWriter;
import dev.docsassistant.analytics.Records;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Topics by meaning, over real HTTP on the embedded store: about 300 questions from six themes of the real docs in
 * ../shared/corpus (each page's description, as a reader would put it: three sections of Mintlify's docs, Stagehand's,
 * two of Dify's) are recorded in a shuffled order, the background route groups them, and the groups are compared
 * with the themes: the topics' purity (the share of questions in their topic's most common theme) is at least 0.85
 * with at most one topic for three questions, and the categories (the conversations API's queryCategory) agree with
 * the themes with an adjusted Rand index of at least 0.5. Measured here: 0.90 and 0.66.
 */
class TopicsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> THEMES = new LinkedHashMap<>();

    static {
        THEMES.put("mintlify components", "mintlify-docs/components");
        THEMES.put("mintlify integrations", "mintlify-docs/integrations");
        THEMES.put("mintlify deploy", "mintlify-docs/deploy");
        THEMES.put("stagehand", "stagehand-docs");
        THEMES.put("dify", "dify-docs/en/cloud/use-dify");
        THEMES.put("dify plugins", "dify-docs/en/develop-plugin");
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** A question and the theme it was taken from. */
    record Question(String text, int theme) {
    }

    /** Each page's frontmatter description in the themes' folders, in a fixed shuffled order. */
    static List<Question> questions() throws Exception {
        Path corpus = Path.of(System.getProperty("shared.corpus", "../shared/corpus"));
        assumeTrue(Files.isDirectory(corpus.resolve("mintlify-docs")) && Files.isDirectory(corpus.resolve("dify-docs"))
                && Files.isDirectory(corpus.resolve("stagehand-docs")),
                "../shared/corpus (mintlify, dify, stagehand docs) not found: the topics' quality test skipped");
        Pattern description = Pattern.compile("^description:\\s*[\"']*(.+?)[\"']*\\s*$", Pattern.MULTILINE);
        List<Question> questions = new ArrayList<>();
        int theme = 0;
        for (String folder : THEMES.values()) {
            try (Stream<Path> files = Files.walk(corpus.resolve(folder))) {
                for (Path file : files.filter(p -> p.toString().endsWith(".mdx")).sorted().toList()) {
                    Matcher matcher = description.matcher(Files.readString(file));
                    if (matcher.find()) {
                        questions.add(new Question(matcher.group(1), theme));
                    }
                }
            }
            theme++;
        }
        Collections.shuffle(questions, new Random(7));
        return questions;
    }

    @Test
    void questionsAreGroupedAsTheDocsThemesAreAndStayInTheirTopics(@TempDir Path folder) throws Exception {
        List<Question> questions = questions();
        assertTrue(questions.size() >= 250, "several hundred questions: " + questions.size());
        Map<String, String> properties = AnalyticsTest.properties(folder);
        properties.put("assistant.topics.enabled", "true");
        properties.put("assistant.topics.period-seconds", "1");
        try (ServiceInstance service = ServiceInstance.start(properties, http)) {
            RecordWriter writer = service.bean("recordWriter", RecordWriter.class);
            Instant at = Instant.now();
            int first = questions.size() - 40;
            for (int i = 0; i < first; i++) {
                writer.offer(turn(i, questions.get(i).text(), at, i % 5 == 0));
            }
            writer.offer(new Records.Feedback("acme", "acme", "fp-topics", "assistant", null, false, null, null,
                    null, null, null, "thr_topic_0", "msg_topic_0", at));
            writer.offer(new Records.Feedback("acme", "acme", "fp-topics", "assistant", null, true, null, null,
                    null, null, null, "thr_topic_1", "msg_topic_1", at));
            AnalyticsTest.awaitRows(service, "turns", "fp-topics", first);
            AnalyticsTest.awaitRows(service, "feedback", "fp-topics", 2);
            Map<Integer, Integer> before = awaitGrouped(service, first);

            // Later questions join the topics found; no question grouped before moves.
            for (int i = first; i < questions.size(); i++) {
                writer.offer(turn(i, questions.get(i).text(), at, false));
            }
            Map<Integer, Integer> after = awaitGrouped(service, questions.size());
            before.forEach((turn, topic) -> assertEquals(topic, after.get(turn), "turn " + turn + " moved"));

            int[] themes = questions.stream().mapToInt(Question::theme).toArray();
            int[] topics = new int[questions.size()];
            after.forEach((index, topic) -> topics[index] = topic);
            long topicCount = after.values().stream().distinct().count();
            double purity = purity(themes, topics);
            assertTrue(topicCount <= questions.size() / 3, topicCount + " topics for " + questions.size());
            assertTrue(purity >= 0.85, "the topics' purity " + purity);

            JsonNode conversations = json(get(service, "/v1/analytics/acme/assistant?limit=1000"));
            Map<String, Integer> categoryIds = new HashMap<>();
            int[] categories = new int[questions.size()];
            for (JsonNode row : conversations.get("conversations")) {
                int index = Integer.parseInt(row.get("messageId").asText().substring("msg_topic_".length()));
                categories[index] = categoryIds.computeIfAbsent(row.get("queryCategory").asText(),
                        k -> categoryIds.size());
            }
            double ari = adjustedRandIndex(themes, categories);
            assertTrue(ari >= 0.5, "the categories' adjusted Rand index " + ari + " (" + categoryIds.size() + ")");

            JsonNode grouped = json(get(service, "/v1/analytics/acme/assistant/topics"));
            assertEquals(questions.size(), grouped.get("questions").asLong());
            assertEquals(0, grouped.get("ungrouped").asLong());
            assertEquals(categoryIds.size(), grouped.get("categories").size());
            double share = 0;
            long unanswered = 0;
            long up = 0;
            long down = 0;
            for (JsonNode category : grouped.get("categories")) {
                share += category.get("share").asDouble();
                assertTrue(categoryIds.containsKey(category.get("label").asText()), category.toString());
                long inTopics = 0;
                for (JsonNode topic : category.get("topics")) {
                    inTopics += topic.get("questions").asLong();
                    unanswered += Math.round(topic.get("unansweredShare").asDouble()
                            * topic.get("questions").asLong());
                    up += topic.get("thumbsUp").asLong();
                    down += topic.get("thumbsDown").asLong();
                    assertTrue(topic.get("examples").size() >= 1 && topic.get("examples").size() <= 5,
                            topic.toString());
                }
                assertEquals(category.get("questions").asLong(), inTopics, category.toString());
            }
            assertEquals(1.0, share, 1e-9);
            assertEquals((first + 4) / 5, unanswered, "every fifth of the first questions went unanswered");
            assertEquals(List.of(1L, 1L), List.of(up, down), "the answers' ratings counted in their topics");

            assertEquals(401, get(service, "/v1/analytics/acme/assistant/topics", ServiceTest.ACME_KEY)
                    .statusCode(), "the public key reads no topics");
            assertEquals(403, get(service, "/v1/analytics/acme/assistant/topics",
                    AnalyticsTest.GLOBEX_ADMIN_KEY).statusCode(), "another organization's key reads none");
        }
    }

    /**
     * Gaps: unanswered questions on two themes, each recorded with the page its search came closest to (a third of
     * them with none), come out as two groups, each naming its theme's page; answered questions make no gap.
     */
    @Test
    void unansweredQuestionsOnTwoThemesAreTwoGapsEachNamingItsClosestPage(@TempDir Path folder) throws Exception {
        Map<String, String> properties = AnalyticsTest.properties(folder);
        properties.put("assistant.topics.enabled", "true");
        properties.put("assistant.topics.period-seconds", "1");
        String[] port = {"How do I change the port the service listens on?", "Which port does the server listen on?",
            "Can I run the service on port 9090 instead?", "How do I set a different listening port?"};
        String[] sso = {"How do I log in to the dashboard with single sign-on?", "Does the dashboard support SSO login?",
            "Can I log in with single sign-on?", "How do I set up SAML single sign-on for login?"};
        try (ServiceInstance service = ServiceInstance.start(properties, http)) {
            RecordWriter writer = service.bean("recordWriter", RecordWriter.class);
            Instant at = Instant.now();
            int i = 0;
            for (int round = 0; round < 3; round++) {
                for (String question : port) {
                    writer.offer(gap(i++, question, at, round == 2 ? null : "https://docs.acme.com/configuration"));
                }
                for (String question : sso) {
                    writer.offer(gap(i++, question, at, round == 2 ? null : "https://docs.acme.com/authentication"));
                }
            }
            writer.offer(turn(i++, "How do I change the port the service listens on?", at, false));
            AnalyticsTest.awaitRows(service, "turns", "fp-topics", i);
            awaitGrouped(service, i);

            JsonNode gaps = json(get(service, "/v1/analytics/acme/assistant/topics")).get("gaps");
            assertEquals(2, gaps.size(), gaps.toString());
            Map<String, Long> unansweredByPage = new HashMap<>();
            for (JsonNode gap : gaps) {
                unansweredByPage.put(gap.get("closestPage").asText(), gap.get("unanswered").asLong());
                String page = gap.get("closestPage").asText().endsWith("/configuration") ? "port" : "sign";
                for (JsonNode example : gap.get("examples")) {
                    assertTrue(example.get("query").asText().toLowerCase().contains(page)
                            || example.get("query").asText().contains("SSO"), gap.toString());
                }
            }
            assertEquals(Map.of("https://docs.acme.com/configuration", 12L, "https://docs.acme.com/authentication",
                    12L), unansweredByPage, "each theme's unanswered questions, not the answered one");
        }
    }

    private static Records.Turn gap(int i, String question, Instant at, String closestPage) {
        return new Records.Turn("acme", "acme", "thr_topic_" + i, "msg_topic_" + i, "fp-topics", at, at, question,
                "…", "answer", "[]", "unanswered", "web", null, null, closestPage);
    }

    private static Records.Turn turn(int i, String question, Instant at, boolean unanswered) {
        return new Records.Turn("acme", "acme", "thr_topic_" + i, "msg_topic_" + i, "fp-topics", at, at, question,
                "…", "answer", "[]", unanswered ? "unanswered" : "answered", "web", null, null);
    }

    /** Waits for the background route to have grouped every turn; each turn's topic by its question's index. */
    private static Map<Integer, Integer> awaitGrouped(ServiceInstance service, int expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            Map<Integer, Integer> topics = new HashMap<>();
            try (Connection connection = service.bean("records", Records.class).connection();
                    PreparedStatement select = connection.prepareStatement(
                            "SELECT message_id, topic_id FROM turns WHERE fp = 'fp-topics' AND topic_id IS NOT NULL");
                    ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    topics.put(Integer.parseInt(rs.getString(1).substring("msg_topic_".length())), rs.getInt(2));
                }
            }
            if (topics.size() == expected) {
                return topics;
            }
            assertTrue(System.nanoTime() < deadline, topics.size() + " of " + expected + " grouped");
            Thread.sleep(200);
        }
    }

    /** The share of questions whose group's most common theme is theirs. */
    static double purity(int[] themes, int[] groups) {
        Map<Integer, Map<Integer, Integer>> counts = new HashMap<>();
        for (int i = 0; i < themes.length; i++) {
            counts.computeIfAbsent(groups[i], k -> new HashMap<>()).merge(themes[i], 1, Integer::sum);
        }
        return counts.values().stream().mapToInt(c -> Collections.max(c.values())).sum() / (double) themes.length;
    }

    /** Hubert and Arabie's adjusted Rand index of two partitions: 1 the same, about 0 as good as chance. */
    static double adjustedRandIndex(int[] a, int[] b) {
        Map<List<Integer>, Integer> both = new HashMap<>();
        Map<Integer, Integer> rows = new HashMap<>();
        Map<Integer, Integer> columns = new HashMap<>();
        for (int i = 0; i < a.length; i++) {
            both.merge(List.of(a[i], b[i]), 1, Integer::sum);
            rows.merge(a[i], 1, Integer::sum);
            columns.merge(b[i], 1, Integer::sum);
        }
        double index = both.values().stream().mapToDouble(TopicsTest::pairs).sum();
        double sumRows = rows.values().stream().mapToDouble(TopicsTest::pairs).sum();
        double sumColumns = columns.values().stream().mapToDouble(TopicsTest::pairs).sum();
        double expected = sumRows * sumColumns / pairs(a.length);
        return (index - expected) / ((sumRows + sumColumns) / 2 - expected);
    }

    private static double pairs(int n) {
        return n * (n - 1) / 2.0;
    }

    private HttpResponse<String> get(ServiceInstance service, String path) throws Exception {
        return get(service, path, AnalyticsTest.ADMIN_KEY);
    }

    private HttpResponse<String> get(ServiceInstance service, String path, String key) throws Exception {
        return http.send(HttpRequest.newBuilder(service.uri(path)).timeout(Duration.ofSeconds(15))
                .header("Authorization", "Bearer " + key).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }
}
