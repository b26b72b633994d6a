package dev.docsassistant.model;

import java.util.List;
import java.util.Set;

import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.MessagePart;
import dev.docsassistant.request.Role;
import dev.docsassistant.request.UiMessage;
import dev.docsassistant.search.DocsFolder;
import dev.docsassistant.search.Page;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.SearchQuery;
import dev.docsassistant.search.SearchResult;
import dev.docsassistant.search.Section;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The offline answer: what it quotes of a section, in what order and shape, and when it declines. */
class ExtractiveModelTest {

    private static final Section LIMITS = new Section("limits", List.of("Limits"), """
            Every organization has limits, counted per hour.
            | Property | Default | Effect |
            | --- | --- | --- |
            | assistant.ratelimit.org-per-hour | 10000 | Requests an organization may send per hour. |
            | assistant.threads.ttl-minutes | 1440 | A thread unused this long is forgotten. |
            - Raise a limit for one organization in the tenants file.
            - Lower it for everyone with an environment variable.
            Limits reset at the start of each hour.""", "```bash\nASSISTANT_RATELIMIT_ORG_PER_HOUR=20000 java -jar app.jar\n```");

    private final ExtractiveModel model = new ExtractiveModel();

    @Test
    void aTableRowAskedAboutComesUnderItsHeaderOneRowALine() {
        String answer = text(answer("How long is a thread kept when unused?", 0.6, LIMITS));

        assertTrue(answer.startsWith("| Property | Default | Effect |\n| --- | --- | --- |\n"
                + "| assistant.threads.ttl-minutes | 1440 | A thread unused this long is forgotten. |"), answer);
        assertFalse(answer.contains("org-per-hour"), "only the row asked about: " + answer);
    }

    @Test
    void aQuestionForADefaultGetsTheSentenceHoldingTheNumberAndHourlyMeetsPerHour() {
        Section window = new Section("window", List.of("The window"), """
                The default limit per hour is counted in a sliding window of the organization's requests.
                The default limit per hour covers answers and searches alike.
                The default limit per hour is checked before the search runs.
                The default limit per hour is the same on every replica.
                An organization may send 10000 requests an hour.""", "");

        quotedOnlyWhenAsked(window, "What is the default hourly limit?", "Does every replica count the hour the same?",
                "An organization may send 10000 requests an hour.");
    }

    @Test
    void aHowQuestionGetsTheSentenceNamingTheSettingBeforeThoseRepeatingItsWords() {
        Section port = new Section("port", List.of("Port"), """
                Change the port before the first start.
                Change the port again after an upgrade.
                Change the port on every replica.
                Change the port in the firewall too.
                The port is `camel.server.port`.""", "");

        quotedOnlyWhenAsked(port, "How do I change the port?", "Why change the port?", "The port is `camel.server.port`.");
    }

    /** The unit doing what {@code asking} asks is quoted; {@code notAsking}, sharing more words elsewhere, gets those. */
    private void quotedOnlyWhenAsked(Section section, String asking, String notAsking, String doing) {
        String answer = text(answer(asking, 0.6, section));
        assertTrue(answer.contains(doing), answer);
        String other = text(answer(notAsking, 0.6, section));
        assertFalse(other.contains(doing), "not asked: the units naming the question's words: " + other);
    }

    @Test
    void aTableIsLeftOutWhenTheQuestionIsNotAboutItsRowsAndListItemsStayAList() {
        String answer = text(answer("Where do I raise or lower a limit?", 0.6, LIMITS));

        assertFalse(answer.contains("|"), answer);
        assertTrue(answer.contains("- Raise a limit for one organization in the tenants file.\n"
                + "- Lower it for everyone with an environment variable."), answer);
    }

    @Test
    void theCodeFollowsWhenAskedHowAndAboutTheQuestionThenThePageQuoted() {
        ModelReply reply = answer("How do I raise the limit per hour of an organization?", 0.6, LIMITS);
        String answer = text(reply);

        int code = answer.indexOf("```bash\nASSISTANT_RATELIMIT_ORG_PER_HOUR=20000 java -jar app.jar\n```");
        int quoted = answer.indexOf("Quoted from [Rate limits › Limits](https://docs.example.com/limits#limits)");
        assertTrue(code > 0 && quoted > code, answer);
        assertEquals(List.of("https://docs.example.com/limits"), reply.sources().stream().map(Source::url).toList());
        assertFalse(text(answer("Which limits reset every hour?", 0.6, LIMITS)).contains("```"),
                "not asked how: no code");
    }

    @Test
    void aSectionFarInMeaningAndWordsIsDeclinedWithNoSource() {
        ModelReply far = answer("What's the weather in Paris?", 0.12, LIMITS);
        assertEquals(ExtractiveModel.NOT_FOUND, text(far));
        assertEquals(List.of(), far.sources());

        ModelReply sharingWords = answer("Is there a limit per organization?", ExtractiveModel.CLOSE, LIMITS);
        assertTrue(text(sharingWords).startsWith("Every organization has limits"), "fairly close and its words");
        ModelReply wordsOnly = answer("Is there a limit per organization?", Double.NaN, LIMITS);
        assertEquals(1, wordsOnly.sources().size(), "not compared by meaning: the words decide");
        assertEquals(ExtractiveModel.NOT_FOUND, text(answer("Can I pay with PayPal?", Double.NaN, LIMITS)));
    }

    @Test
    void aShortQuestionIsDeclinedByASectionAboutItsSettingOnly() {
        Section dashboard = new Section("", List.of(), "Open the dashboard in a browser and enter the admin key.", "");
        String shortQuestion = "How do I reset my password on the dashboard?";

        assertEquals(ExtractiveModel.NOT_FOUND, text(answer(shortQuestion, 0.4, dashboard)), "one word of three");
        assertTrue(text(answer(shortQuestion, ExtractiveModel.CLEARLY_CLOSE, dashboard)).startsWith("Open the"),
                "clearly close in meaning");
        assertTrue(text(answer("Where do I reset a forgotten password on the dashboard of the hosted service?", 0.4,
                dashboard)).startsWith("Open the"), "a longer question, in a user's words, is not held to its words");
    }

    @Test
    void ofNearlyTiedPagesThePageNamingTheQuestionsRareWordIsQuoted() {
        Section restart = new Section("restart", List.of("What a restart resets"),
                "A restart resets the caches. Every start prints the key of the demo tenant.", "");
        Section quickstart = new Section("start", List.of("Start the service"),
                "To keep the same key across restarts, set ASSISTANT_DEMO_KEY yourself.", "");
        String question = "How do I keep the same demo key?";

        ModelReply nearlyTied = model.answer(request(question, hit("/health", "Health", restart, 1),
                hit("/quickstart", "Quickstart", quickstart, ExtractiveModel.NEAR_TIE)));
        assertEquals(List.of("https://docs.example.com/quickstart"), urls(nearlyTied));
        assertTrue(text(nearlyTied).startsWith("To keep the same key"), "the page naming keep and same: "
                + text(nearlyTied));

        ModelReply farBehind = model.answer(request(question, hit("/health", "Health", restart, 1),
                hit("/quickstart", "Quickstart", quickstart, ExtractiveModel.NEAR_TIE - 0.01)));
        assertEquals(List.of("https://docs.example.com/health"), urls(farBehind), "the search's order stands");
    }

    @Test
    void ofNearlyTiedPagesNamingAsManyOfTheQuestionsWordsTheCloserInMeaningIsQuoted() {
        Section rotate = new Section("rotate", List.of("Rotate"), "Rotate the logs every week.", "");
        Section signing = new Section("signing", List.of("Signing"), "The signing material is read at start.", "");
        String question = "How do I rotate the signing key?";

        ModelReply closer = model.answer(request(question, hit("/logs", "Logs", rotate, 1, 0.46),
                hit("/secrets", "Secrets", signing, ExtractiveModel.NEAR_TIE, 0.8)));
        assertEquals(List.of("https://docs.example.com/secrets"), urls(closer));
        ModelReply alike = model.answer(request(question, hit("/logs", "Logs", rotate, 1, 0.6),
                hit("/secrets", "Secrets", signing, ExtractiveModel.NEAR_TIE, 0.6)));
        assertEquals(List.of("https://docs.example.com/logs"), urls(alike), "alike in meaning: the search's order");
    }

    @Test
    void anIdentifiersPartsAreTheWordsAReaderNames() {
        Section origins = new Section("origins", List.of("Origins"),
                "Restarts keep the list. A request from an origin the list does not allow is refused.", "");

        assertEquals("A request from an origin the list does not allow is refused.",
                text(answer("What is origin_not_allowed?", 0.6, origins)).lines().findFirst().orElseThrow());
        Section camelCase = new Section("origins", List.of("Origins"),
                "Restarts keep the list. List the sites in allowedOrigins of the domain.", "");
        assertEquals("List the sites in allowedOrigins of the domain.",
                text(answer("Which origins are allowed?", 0.6, camelCase)).lines().findFirst().orElseThrow());
    }

    @Test
    void aWordHoldingAnotherDoesNotAskForCode() {
        String answer = text(answer("What is the address limit per hour?", 0.6, LIMITS));

        assertTrue(answer.startsWith("Every organization has limits"), answer);
        assertFalse(answer.contains("```"), "\"address\" holds \"add\" but asks for no command: " + answer);
    }

    @Test
    void theCommandAHowQuestionAsksForComesWithinTheFirstScreen() {
        String sentence = "Deploy the service on the cluster with the operator, which reconciles the integration in its"
                + " own namespace and keeps the deployment running while the cluster changes around it (%d).";
        Section deploy = new Section("deploy", List.of("Deploy on the cluster"), String.join(" ",
                sentence.formatted(1), sentence.formatted(2), sentence.formatted(3), sentence.formatted(4)),
                "```bash\nkamel run --name service --image service:1.0\n```");

        String answer = text(answer("How do I deploy the service on the cluster?", 0.6, deploy));

        assertTrue(answer.startsWith("Deploy the service on the cluster"), "the prose leads: " + answer);
        int command = answer.indexOf("kamel run --name service");
        assertTrue(command > 0 && command < 600, "the command within the first 600 characters: " + answer);
    }

    @Test
    void withTheCodeComesTheSentenceNamingWhatTheCodeSets() {
        Section add = new Section("add", List.of("Add a step"), """
                A route that reads from direct:assistant-step-x is a step.
                Point the service at the folder.
                assistant.routes-dir names the folder; set but missing, the service does not start.
                A request without X-Docs-Team now gets 403.""",
                "```bash\ncp require-team-header.yaml routes/\nASSISTANT_ROUTES_DIR=routes java -jar app.jar\n```");

        String how = text(answer("How do I add my own step that rejects requests without a team header?", 0.6, add));
        assertTrue(how.contains("assistant.routes-dir names the folder") && how.indexOf("assistant.routes-dir")
                < how.indexOf("```"), "the code's ASSISTANT_ROUTES_DIR explained before it: " + how);
        String which = text(answer("Which step rejects requests without a team header?", 0.6, add));
        assertFalse(which.contains("routes-dir"), "no code, nothing to explain: " + which);
        assertEquals(ExtractiveModel.names("ASSISTANT_ROUTES_DIR=routes"),
                ExtractiveModel.names("`assistant.routes-dir`"));
        assertEquals(Set.of("x-docs-team", "allowed-origins"), ExtractiveModel.names("X-Docs-Team, allowedOrigins"));
        assertEquals(Set.of(), ExtractiveModel.names("e.g. on GitHub, in a route's step"), "words, not identifiers");
    }

    @Test
    void theCommandLeadsWhenNoSentenceNamesTheQuestionsWords() {
        Section ollama = new Section("ollama", List.of("Answer with a local Ollama"),
                "`POST {base-url}/chat/completions` is called with `stream: true`, each token sent on.",
                "```bash\nASSISTANT_MODEL_PROVIDER=openai ASSISTANT_MODEL_BASE_URL=http://127.0.0.1:11434/v1 "
                        + "java -jar app.jar\n```");

        String answer = text(answer("How do I answer with a local Ollama model provider?", 0.6, ollama));
        assertTrue(answer.startsWith("```bash\nASSISTANT_MODEL_PROVIDER=openai"), "the setting first: " + answer);
        assertTrue(answer.contains("```\n\n`POST {base-url}/chat/completions`"), "then the prose: " + answer);
        assertTrue(text(answer("How do I raise the limit per hour of an organization?", 0.6, LIMITS))
                .startsWith("Every organization has limits"), "a sentence naming the question still leads");
    }

    @Test
    void aSentenceEndsOutsideItsInlineCode() throws Exception {
        Section readiness = guide("/operations/health", "What readiness means, per domain and per store");

        List<String> sentences = model.units(readiness.text(), Set.of()).stream().map(ExtractiveModel.Unit::text)
                .toList();
        assertTrue(sentences.stream().anyMatch(sentence -> sentence.startsWith("`/observe/health?exposureLevel=full")
                && sentence.contains("last error (`domain.<id>.error`, kept while a previous index serves too)")),
                "one sentence, its code whole: " + sentences);
        assertTrue(sentences.stream().noneMatch(sentence -> sentence.startsWith("<id>")), sentences.toString());
    }

    @Test
    void ofNearlyTiedPagesThePageWhoseCodeDoesWhatIsAskedIsQuoted() throws Exception {
        SearchHit threads = hit("/guides/threads", "Conversation threads", 0.562,
                guide("/guides/threads", "Continue a conversation"),
                guide("/guides/threads", "What the docs team sees"));
        Section erase = guide("/api/admin-threads-delete", "");

        ModelReply delete = model.answer(request("A reader asks us to delete their conversations", threads,
                hit("/api/admin-threads-delete", "Erase a reader's threads", erase, 0.94, 0.477)));
        assertEquals(List.of("https://docs.example.com/api/admin-threads-delete"), urls(delete),
                "curl -X DELETE does it, though the threads guide is closer in meaning");
        ModelReply follow = model.answer(request("A reader asks us to continue their conversations", threads,
                hit("/api/admin-threads-delete", "Erase a reader's threads", erase, 0.94, 0.477)));
        assertEquals(List.of("https://docs.example.com/guides/threads"), urls(follow), "no code does it: meaning");
    }

    /** A section of the bundled user guide, by its page and last heading (none: the page's introduction). */
    private static Section guide(String path, String heading) throws java.io.IOException {
        return DocsFolder.read("classpath:demo-docs").pages().stream().filter(page -> page.path().equals(path))
                .flatMap(page -> page.sections().stream())
                .filter(section -> heading.isEmpty() ? section.headings().isEmpty() : !section.headings().isEmpty()
                        && section.headings().get(section.headings().size() - 1).equals(heading))
                .findFirst().orElseThrow(() -> new AssertionError("no section " + heading + " on " + path));
    }

    private ModelReply answer(String question, double similarity, Section section) {
        Page page = new Page("/limits", "Rate limits", "", List.of(), "", List.of(section), "en", "", List.of(),
                false, List.of());
        return model.answer(request(question,
                new SearchHit(page, List.of(section), "https://docs.example.com/limits", 1, similarity)));
    }

    private static SearchHit hit(String path, String title, Section section, double score) {
        return hit(path, title, section, score, 0.6);
    }

    private static SearchHit hit(String path, String title, double similarity, Section... sections) {
        Page page = new Page(path, title, "", List.of(), "", List.of(sections), "en", "", List.of(), false, List.of());
        return new SearchHit(page, List.of(sections), "https://docs.example.com" + path, 1, similarity);
    }

    private static SearchHit hit(String path, String title, Section section, double score, double similarity) {
        Page page = new Page(path, title, "", List.of(), "", List.of(section), "en", "", List.of(), false, List.of());
        return new SearchHit(page, List.of(section), "https://docs.example.com" + path, score, similarity);
    }

    private static ModelRequest request(String question, SearchHit... hits) {
        UiMessage message = new UiMessage("m0", Role.USER, question, List.of(new MessagePart.Text(question)), null,
                null, null);
        ChatRequest chat = new ChatRequest("fp", List.of(message), null, null, 5, null, List.of(), null);
        return new ModelRequest(null, chat, new SearchResult(SearchQuery.of(question, 5), List.of(hits)));
    }

    private static List<String> urls(ModelReply reply) {
        return reply.sources().stream().map(Source::url).toList();
    }

    private static String text(ModelReply reply) {
        StringBuilder text = new StringBuilder();
        for (ModelEvent event = next(reply); event != null; event = next(reply)) {
            if (event instanceof ModelEvent.Text delta) {
                text.append(delta.delta());
            }
        }
        return text.toString();
    }

    private static ModelEvent next(ModelReply reply) {
        try {
            return reply.next();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
