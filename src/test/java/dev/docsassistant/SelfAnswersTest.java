package dev.docsassistant;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.model.ExtractiveModel;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Asked about itself as a new user asks, the offline model answers from the bundled user guide: it cites, and
 * leads with the words of, the page that answers the question (not a page that says something untrue about the
 * product).
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        ServiceTest.UNLIMITED_ADDRESS_RATE})
class SelfAnswersTest extends ServiceTest {

    /** The section the extractive answer quotes, {@code Quoted from [Title › Heading](url#anchor)}. */
    private static final Pattern QUOTED_FROM = Pattern.compile("Quoted from \\[[^\\]]+]\\(([^)#]+)(#[^)]*)?\\)");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)]\\([^)]*\\)");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Can several replicas share the rate limits? | /operations/replicas /guides/rate-limits",
            "How do I deploy it with Camel K?            | /operations/kubernetes",
            "Can I use Ollama?                           | /guides/models"})
    void theOfflineModelQuotesThePageThatAnswers(String question, String pages) throws Exception {
        HttpResponse<String> response = send(post("/v1/assistant/acme/message", ACME_KEY, question(question)));
        assertEquals(200, response.statusCode(), response.body());
        List<Part> parts = parts(response.body());
        List<String> sources = parts.stream().filter(part -> part.code().equals("h"))
                .map(part -> part.value().get("url").asText()).toList();
        assertEquals(1, sources.size(), "the one page quoted: " + sources);
        // both pages say it: replicas on Redis share the counters
        String page = Stream.of(pages.split(" ")).filter(p -> sources.get(0).equals("https://acme.example.com/docs" + p))
                .findFirst().orElseThrow(() -> new AssertionError("cited " + sources + ", expected one of " + pages));

        String answer = parts.stream().filter(part -> part.code().equals("0")).map(part -> part.value().asText())
                .collect(Collectors.joining());
        Matcher quoted = QUOTED_FROM.matcher(answer);
        assertTrue(quoted.find(), answer);
        assertEquals("https://acme.example.com/docs" + page, quoted.group(1), answer);
        String firstLine = answer.lines().findFirst().orElseThrow();
        String content = new ObjectMapper().readTree(send(post("/v1/page/acme", ACME_KEY,
                "{\"path\": \"" + page + "\"}")).body()).get("content").asText();
        assertTrue(plain(content).contains(plain(firstLine)), "the answer leads with the page's own text: " + firstLine);
    }

    /** Words of the asking ("can I use", "how do I") do not move a question off the section that answers it. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Ollama                          | /guides/models#answer-with-a-local-ollama",
            "Can I use Ollama?               | /guides/models#answer-with-a-local-ollama",
            "How do I use Ollama?            | /guides/models#answer-with-a-local-ollama",
            "How do I deploy on Camel K?     | /operations/kubernetes#camel-k"})
    void theSearchFindsTheSectionWhateverWordsAskForIt(String query, String section) throws Exception {
        HttpResponse<String> response = send(post("/v1/search/acme", ACME_KEY, "{\"query\": \"" + query + "\"}"));
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("https://acme.example.com/docs" + section,
                new ObjectMapper().readTree(response.body()).get(0).get("metadata").get("url").asText());
    }

    @Test
    void aQuestionTheDocsDoNotCoverIsDeclinedInOneSentenceWithoutSources() throws Exception {
        HttpResponse<String> response = send(post("/v1/assistant/acme/message", ACME_KEY,
                question("What's the weather in Paris?")));
        assertEquals(200, response.statusCode(), response.body());
        List<Part> parts = parts(response.body());
        assertEquals(List.of(), parts.stream().filter(part -> part.code().equals("h")).toList(), "no sources");
        assertEquals(ExtractiveModel.NOT_FOUND, parts.stream().filter(part -> part.code().equals("0"))
                .map(part -> part.value().asText()).collect(Collectors.joining()));
    }

    @Test
    void aTableIsQuotedWithItsHeaderAndOneRowALine() throws Exception {
        HttpResponse<String> response = send(post("/v1/assistant/acme/message", ACME_KEY,
                question("How long are conversation threads kept before they are deleted?")));
        String answer = parts(response.body()).stream().filter(part -> part.code().equals("0"))
                .map(part -> part.value().asText()).collect(Collectors.joining());
        List<String> lines = answer.lines().toList();
        int header = lines.indexOf("| Property | Default | Effect |");
        assertTrue(header >= 0, answer);
        assertEquals("| --- | --- | --- |", lines.get(header + 1), answer);
        assertTrue(lines.get(header + 2).startsWith("| `assistant.threads.") && lines.get(header + 2).endsWith("|"),
                answer);
    }

    /** Markdown as the reader reads it: link text without its target, no emphasis or code marks, one space. */
    private static String plain(String markdown) {
        return LINK.matcher(markdown).replaceAll("$1").replaceAll("[`*]", "").replaceAll("\\s+", " ").strip();
    }
}
