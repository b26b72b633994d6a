package dev.docsassistant;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Asked about itself as a new user asks, the offline model answers from the bundled user guide: it cites first, and
 * quotes, the page that answers the question (not a page that says something untrue about the product).
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml",
        ServiceTest.UNLIMITED_ADDRESS_RATE})
class SelfAnswersTest extends ServiceTest {

    /** The first page the extractive answer names, {@code **Title** ([/path](url))}, and its first quoted line. */
    private static final Pattern FIRST_QUOTE = Pattern.compile("\\*\\*[^*]+\\*\\* \\(\\[([^\\]]+)]\\([^)]*\\)\\)\\s+> (.+)");
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)]\\([^)]*\\)");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Can several replicas share the rate limits? | /operations/replicas",
            "How do I deploy it with Camel K?            | /operations/kubernetes"})
    void theOfflineModelQuotesThePageThatAnswers(String question, String page) throws Exception {
        HttpResponse<String> response = send(post("/v1/assistant/acme/message", ACME_KEY, question(question)));
        assertEquals(200, response.statusCode(), response.body());
        List<Part> parts = parts(response.body());
        String firstSource = parts.stream().filter(part -> part.code().equals("h")).findFirst().orElseThrow()
                .value().get("url").asText();
        assertEquals("https://acme.example.com/docs" + page, firstSource, "the page cited first");

        String answer = parts.stream().filter(part -> part.code().equals("0")).map(part -> part.value().asText())
                .collect(Collectors.joining());
        Matcher quote = FIRST_QUOTE.matcher(answer);
        assertTrue(quote.find(), answer);
        assertEquals(page, quote.group(1), answer);
        String content = new ObjectMapper().readTree(send(post("/v1/page/acme", ACME_KEY,
                "{\"path\": \"" + page + "\"}")).body()).get("content").asText();
        assertTrue(plain(content).contains(plain(quote.group(2))),
                "the quote is the page's own text: " + quote.group(2));
    }

    /** Markdown as the reader reads it: link text without its target, no emphasis or code marks, one space. */
    private static String plain(String markdown) {
        return LINK.matcher(markdown).replaceAll("$1").replaceAll("[`*]", "").replaceAll("\\s+", " ").strip();
    }
}
