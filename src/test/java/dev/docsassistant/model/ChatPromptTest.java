package dev.docsassistant.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.config.DocsSource;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.config.TenantsFile;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.ContextType;
import dev.docsassistant.request.MessagePart;
import dev.docsassistant.request.Role;
import dev.docsassistant.request.UiMessage;
import dev.docsassistant.search.Page;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.SearchQuery;
import dev.docsassistant.search.SearchResult;
import dev.docsassistant.search.Section;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChatPromptTest {

    private static final String PROMPT = "classpath:prompts/system.md";

    @Test
    void aTightBudgetDropsTheOldestTurnsFirstThenTheLowestRankedExcerpts() {
        ModelRequest request = request(null, List.of(hit("Best", 400), hit("Second", 400), hit("Third", 400)),
                "first question " + "x".repeat(400), "first answer " + "y".repeat(400),
                "second question", "second answer", "the question");
        int everything = size(new ChatPrompt(PROMPT, 100_000, "m", "0.2", 100).messages(request));
        assertEquals(6, everything, "system, two earlier turns, the question");

        List<JsonNode> noOldTurn = list(new ChatPrompt(PROMPT, tokens(request) - 150, "m", "0.2", 100)
                .messages(request));
        assertEquals(List.of("system", "user", "assistant", "user"), roles(noOldTurn), "the oldest turn went first");
        assertEquals("second question", noOldTurn.get(1).get("content").asText());
        assertTrue(noOldTurn.get(0).get("content").asText().contains("[3] Third"), "all excerpts still there");

        List<JsonNode> tight = list(new ChatPrompt(PROMPT, 500, "m", "0.2", 100).messages(request));
        assertEquals(List.of("system", "user"), roles(tight), "no history left");
        String system = tight.get(0).get("content").asText();
        assertTrue(system.contains("[1] Best"), "the best excerpt is always kept");
        assertFalse(system.contains("[3] Third"), "the lowest-ranked excerpt went first");
        assertEquals("the question", tight.get(1).get("content").asText());
    }

    @Test
    void everythingTheClientSendsCountsAndIsDroppedInTheDocumentedOrder() {
        List<ChatRequest.ContextItem> context = List.of(item("first", 400), item("second", 400), item("third", 400));
        ModelRequest request = request(null, List.of(hit("Best", 400), hit("Second", 400), hit("Third", 400)),
                context, "first question " + "x".repeat(400), "first answer", "the question " + "q".repeat(2000));
        int everything = tokens(new ChatPrompt(PROMPT, 100_000, "m", "0.2", 100).messages(request));
        int instructions = (int) ChatPrompt.tokens(new ChatPrompt(PROMPT, 100_000, "m", "0.2", 100)
                .messages(request(null, List.of(), "")).get(0).get("content").asText());
        for (int budget = everything; budget >= instructions + 100; budget -= 25) {
            List<JsonNode> sent = list(new ChatPrompt(PROMPT, budget, "m", "0.2", 100).messages(request));
            assertTrue(tokens(sent) <= budget, tokens(sent) + " tokens over a budget of " + budget);
            String system = sent.get(0).get("content").asText();
            String question = sent.get(sent.size() - 1).get("content").asText();
            int excerpts = (int) List.of("[1] Best", "[2] Second", "[3] Third").stream().filter(system::contains)
                    .count();
            List<Boolean> kept = List.of("first", "second", "third").stream()
                    .map(name -> question.contains("\"path\":\"" + name + "\"")).toList();
            int items = kept.indexOf(false) < 0 ? 3 : kept.indexOf(false);
            assertFalse(kept.subList(items, 3).contains(true), "items go from the last: " + kept);
            boolean cut = question.contains("characters left out");
            if (sent.size() > 2) {
                assertEquals(List.of(3, 3, false), List.of(excerpts, items, cut), "history goes first, at " + budget);
            } else if (excerpts > 1) {
                assertEquals(List.of(3, false), List.of(items, cut), "then excerpts but the best, at " + budget);
            } else if (items > 0) {
                assertEquals(List.of(1, false), List.of(excerpts, cut), "then items, at " + budget);
            } else if (excerpts == 1) {
                assertFalse(cut, "then the best excerpt, at " + budget);
            }
            assertTrue(question.endsWith("q".repeat(20)), "the question's end is always there, at " + budget);
        }
    }

    @Test
    void cjkTextCountsATokenACharacter() {
        ModelRequest request = request(null, List.of(hit("Best", 10)), List.of(), "設定".repeat(5_000));
        List<JsonNode> sent = list(new ChatPrompt(PROMPT, 2000, "m", "0.2", 100).messages(request));
        String question = sent.get(1).get("content").asText();
        assertTrue(question.length() < 2000 && question.contains("characters left out"), question.length() + "");
    }

    @Test
    void aSearchResultTakesOnlyWhatTheBudgetLeaves() {
        ModelRequest request = request(null, List.of(hit("Best", 10)), "a question");
        int budget = (int) ChatPrompt.tokens(new ChatPrompt(PROMPT, 100_000, "m", "0.2", 100).body(request, null))
                + 100;
        ChatPrompt prompt = new ChatPrompt(PROMPT, budget, "m", "0.2", 100);
        ObjectNode body = prompt.body(request, null);
        String result = prompt.toolResult(body, List.of(hit("Large", 1000), hit("Small", 10))).text();
        assertTrue(result.startsWith("The prompt has no room"), "the best result alone is over: " + result);
        result = prompt.toolResult(body, List.of(hit("Small", 100), hit("Large", 1000))).text();
        assertTrue(result.startsWith("[1] Small") && !result.contains("Large"), result);
        body.withArray("messages").addObject().put("role", "tool").put("content", result);
        assertTrue(ChatPrompt.tokens(body) <= budget);
    }

    @Test
    void aDomainMayNameItsOwnModelAndAddToTheSystemPrompt() {
        ModelRequest request = request(new TenantsFile.Domain("acme", DocsSource.folder("docs"), "", "acme-llm",
                "classpath:fixture-docs/guides/install.mdx", List.of()), List.of(hit("Best", 10)), "the question");
        JsonNode body = new ChatPrompt(PROMPT, 6000, "default-llm", "1", 100).body(request, null);
        assertEquals("acme-llm", body.get("model").asText());
        assertEquals(1.0, body.get("temperature").asDouble());
        String system = body.get("messages").get(0).get("content").asText();
        int domainPrompt = system.indexOf("Install the CLI");
        assertTrue(system.indexOf("Answer only from the documentation excerpts") < domainPrompt && domainPrompt > 0,
                "the domain's prompt follows the default one, as Mintlify adds to its own: " + system);
    }

    /** A cached search result is answered again and again: its system message is made and encoded once. */
    @Test
    void aSearchResultsSystemMessageIsMadeOnceAndSentAsJacksonEncodesAnyString() throws Exception {
        List<SearchHit> hits = List.of(hit("Best \"quoted\" \\ naïve — ✓ 😀 \u0001\t", 400), hit("Second", 40));
        ChatPrompt prompt = new ChatPrompt(PROMPT, 100_000, "m", "0.2", 100);
        JsonNode first = prompt.messages(request(null, hits, "a question")).get(0).get("content");
        assertSame(first, prompt.messages(request(null, hits, "another question")).get(0).get("content"),
                "the same search result, the same system message");

        ObjectNode body = prompt.body(request(null, hits, "a question"), null);
        byte[] sent = ChatPrompt.JSON.writeValueAsBytes(body);
        ObjectNode read = (ObjectNode) ChatPrompt.JSON.readTree(sent);
        ObjectNode plainBody = body.deepCopy();
        ((ObjectNode) plainBody.get("messages").get(0)).put("content", first.asText());
        assertEquals(ChatPrompt.JSON.readTree(ChatPrompt.JSON.writeValueAsBytes(plainBody)), read,
                "the server reads what it reads from Jackson's encoding of the plain text");
        assertTrue(new String(sent, StandardCharsets.UTF_8).contains("naïve — ✓ 😀 \\u0001\\t"),
                "quoted as JSON, other characters as UTF-8");
        assertEquals(first.asText(), read.get("messages").get(0).get("content").asText());
        assertTrue(first.asText().contains("[1] Best \"quoted\" \\ naïve — ✓ 😀 \u0001\t"), first.asText());
        assertEquals(ChatPrompt.tokens(read), ChatPrompt.tokens(body), "the same estimate as of the plain text");

        ModelRequest plain = request(null, hits, "a question");
        ModelRequest noted = new ModelRequest(plain.tenant(), plain.chat(), plain.search(), "Answer in French.", "",
                new Cancellation());
        assertTrue(prompt.messages(noted).get(0).get("content").asText().contains("Answer in French."));
        assertFalse(prompt.messages(plain).get(0).get("content").asText().contains("French"),
                "another request's instructions never go with the excerpts");
    }

    private static int tokens(ModelRequest request) {
        int chars = 0;
        for (JsonNode message : new ChatPrompt(PROMPT, 100_000, "m", "0.2", 100).messages(request)) {
            chars += message.get("content").asText().length();
        }
        return chars / 4;
    }

    private static int tokens(Iterable<JsonNode> messages) {
        ObjectNode body = ChatPrompt.JSON.createObjectNode();
        messages.forEach(body.withArray("messages")::add);
        return (int) ChatPrompt.tokens(body);
    }

    private static ChatRequest.ContextItem item(String path, int length) {
        return new ChatRequest.ContextItem(ContextType.CODE, path + " " + "c".repeat(length), path, null);
    }

    private static ModelRequest request(TenantsFile.Domain domain, List<SearchHit> hits, String... turns) {
        return request(domain, hits, List.of(), turns);
    }

    private static ModelRequest request(TenantsFile.Domain domain, List<SearchHit> hits,
            List<ChatRequest.ContextItem> context, String... turns) {
        List<UiMessage> messages = new ArrayList<>();
        for (int i = 0; i < turns.length; i++) {
            Role role = i % 2 == 0 ? Role.USER : Role.ASSISTANT;
            messages.add(new UiMessage("m" + i, role, turns[i], List.of(new MessagePart.Text(turns[i])), null, null,
                    null));
        }
        ChatRequest chat = new ChatRequest("fp", messages, null, null, 5, null, context, null);
        var organization = new TenantsFile.Organization("acme", List.of("k"), null, List.of());
        Tenant tenant = new Tenant(organization, domain != null ? domain : new TenantsFile.Domain("acme", "docs", ""));
        return new ModelRequest(tenant, chat, new SearchResult(SearchQuery.of(chat.question(), 5), hits));
    }

    private static SearchHit hit(String title, int length) {
        Section section = new Section("", List.of(title), title + " says " + "z".repeat(length), "");
        Page page = new Page("/" + title.toLowerCase(), title, "", List.of(), "", List.of(section), "en", "",
                List.of(), false, List.of());
        return new SearchHit(page, List.of(section), "https://docs.example.com/" + title.toLowerCase(), 1, Double.NaN);
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> list = new ArrayList<>();
        array.forEach(list::add);
        return list;
    }

    private static int size(JsonNode array) {
        return array.size();
    }

    private static List<String> roles(List<JsonNode> messages) {
        return messages.stream().map(m -> m.get("role").asText()).toList();
    }
}
