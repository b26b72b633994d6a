package dev.docsassistant.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.docsassistant.config.Json;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.MessagePart;
import dev.docsassistant.request.Role;
import dev.docsassistant.request.UiMessage;
import dev.docsassistant.search.SearchHit;

/**
 * The chat-completions request for a question: the system prompt (a file users can replace, per domain too), the
 * documentation excerpts with their titles and URLs, the reader's page and attached code or text, the conversation
 * mapped to chat roles, and the question, kept within a token budget by dropping the oldest turns first and then
 * the lowest-ranked excerpts. Tokens are estimated at four characters each, as no tokenizer fits every model.
 */
public class ChatPrompt {

    static final ObjectMapper JSON = Json.mapper();
    private static final int CHARS_PER_TOKEN = 4;
    private static final int TOKENS_PER_MESSAGE = 4;
    private static final int MAX_SUMMARY = 300;

    private final String systemPrompt;
    private final int tokenBudget;
    private final String model;
    private final double temperature;
    private final int maxTokens;
    private final Map<String, String> prompts = new ConcurrentHashMap<>();

    /**
     * @param systemPrompt the system prompt file, {@code classpath:…} or a path
     * @param tokenBudget  the most the prompt may take, in (estimated) tokens
     * @param temperature  a decimal number (text, so that "1" binds as well as "0.2")
     */
    public ChatPrompt(String systemPrompt, int tokenBudget, String model, String temperature, int maxTokens) {
        this.systemPrompt = systemPrompt;
        this.tokenBudget = tokenBudget;
        this.model = model;
        this.temperature = Double.parseDouble(temperature.strip());
        this.maxTokens = maxTokens;
        text(systemPrompt); // fail at start-up, not on the first question
    }

    /** The request body, without tools. */
    public ObjectNode body(ModelRequest request) {
        ObjectNode body = JSON.createObjectNode();
        String domainModel = request.tenant().domain().model();
        body.put("model", domainModel == null || domainModel.isBlank() ? model : domainModel);
        body.set("messages", messages(request));
        body.put("stream", true);
        body.putObject("stream_options").put("include_usage", true);
        body.put("temperature", temperature);
        body.put("max_tokens", maxTokens);
        return body;
    }

    ArrayNode messages(ModelRequest request) {
        ChatRequest chat = request.chat();
        String domainPrompt = request.tenant().domain().systemPrompt();
        String instructions = text(domainPrompt == null || domainPrompt.isBlank() ? systemPrompt : domainPrompt);
        String reader = reader(chat);
        List<String> excerpts = new ArrayList<>();
        for (SearchHit hit : request.search().hits()) { // best first
            excerpts.add(excerpt(excerpts.size() + 1, hit.title(), hit.sectionUrl(), hit.content()));
        }
        List<ObjectNode> history = history(chat.messages());
        ObjectNode question = message("user", chat.question());

        long fixed = tokens(instructions) + tokens(reader) + tokens(question.get("content").asText())
                + 2 * TOKENS_PER_MESSAGE;
        long total = fixed + excerpts.stream().mapToLong(ChatPrompt::tokens).sum()
                + history.stream().mapToLong(m -> tokens(m.get("content").asText()) + TOKENS_PER_MESSAGE).sum();
        while (total > tokenBudget && !history.isEmpty()) { // a turn at a time: the question and what followed
            do {
                total -= tokens(history.remove(0).get("content").asText()) + TOKENS_PER_MESSAGE;
            } while (!history.isEmpty() && !"user".equals(history.get(0).get("role").asText()));
        }
        while (total > tokenBudget && excerpts.size() > 1) {
            total -= tokens(excerpts.remove(excerpts.size() - 1));
        }

        StringBuilder system = new StringBuilder(instructions.strip());
        system.append("\n\n# Documentation excerpts\n\n");
        if (excerpts.isEmpty()) {
            system.append("(The search found nothing for this question.)\n");
        }
        excerpts.forEach(system::append);
        system.append(reader);

        ArrayNode messages = JSON.createArrayNode();
        messages.add(message("system", system.toString()));
        history.forEach(messages::add);
        messages.add(question);
        return messages;
    }

    /** Results of a search, as the model reads them (the excerpts of the prompt, or a tool's result). */
    static String excerpts(List<SearchHit> hits) {
        if (hits.isEmpty()) {
            return "No documentation matched.";
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < hits.size(); i++) {
            text.append(excerpt(i + 1, hits.get(i).title(), hits.get(i).sectionUrl(), hits.get(i).content()));
        }
        return text.toString();
    }

    private static String excerpt(int rank, String title, String url, String content) {
        return "[" + rank + "] " + title + " (" + url + ")\n" + content.strip() + "\n\n";
    }

    /** The page the reader is on and what they attached: context, not instructions. */
    private static String reader(ChatRequest chat) {
        StringBuilder reader = new StringBuilder();
        if (chat.currentPath() != null && !chat.currentPath().isBlank()) {
            reader.append("The reader is on the page ").append(chat.currentPath()).append(".\n");
        }
        if (chat.context() != null) {
            for (ChatRequest.ContextItem item : chat.context()) {
                String from = item.path() == null || item.path().isBlank() ? "" : " from " + item.path();
                switch (item.type()) {
                    case CODE -> reader.append("The reader attached this code").append(from).append(":\n```\n")
                            .append(item.value().strip()).append("\n```\n");
                    case TEXT_SELECTION -> reader.append("The reader selected this text").append(from)
                            .append(":\n> ").append(item.value().strip().replace("\n", "\n> ")).append('\n');
                }
            }
        }
        return reader.isEmpty() ? "" : "\n# The reader\n\n" + reader;
    }

    /**
     * The turns before the question, oldest first, in chat roles. Earlier searches are summarised into the
     * assistant's turn, and {@code data} or client-sent {@code system} messages become user-side notes, as the
     * client must not be able to instruct the model as the system.
     */
    private static List<ObjectNode> history(List<UiMessage> messages) {
        List<ObjectNode> history = new ArrayList<>();
        int last = messages.size() - 1;
        while (last >= 0 && messages.get(last).role() != Role.USER) {
            last--;
        }
        for (int i = 0; i < last; i++) {
            UiMessage message = messages.get(i);
            String text = message.text();
            switch (message.role()) {
                case USER -> history.add(message("user", text));
                case ASSISTANT -> history.add(message("assistant", searches(message) + text));
                case DATA, SYSTEM -> history.add(message("user", "(Data from the app: "
                        + summary(text) + ")"));
            }
        }
        while (!history.isEmpty() && !"user".equals(history.get(0).get("role").asText())) {
            history.remove(0);
        }
        return history;
    }

    private static String searches(UiMessage message) {
        if (message.parts() == null) {
            return "";
        }
        StringBuilder searches = new StringBuilder();
        for (MessagePart part : message.parts()) {
            if (part instanceof MessagePart.ToolInvocation tool) {
                MessagePart.Invocation invocation = tool.toolInvocation();
                searches.append("(I used the ").append(invocation.toolName()).append(" tool");
                if (invocation instanceof MessagePart.Invocation.Result result) {
                    searches.append(" with ").append(summary(String.valueOf(result.args())))
                            .append(" and found: ").append(summary(titles(result)));
                }
                searches.append(")\n");
            }
        }
        return searches.toString();
    }

    private static String titles(MessagePart.Invocation.Result result) {
        List<String> titles = new ArrayList<>();
        if (result.result() != null) {
            result.result().forEach(item -> titles.add(item.path("metadata").path("title")
                    .asText(item.path("path").asText(""))));
        }
        return titles.isEmpty() ? "nothing" : String.join(", ", titles);
    }

    private static String summary(String text) {
        String flat = text == null ? "" : text.strip();
        return flat.length() <= MAX_SUMMARY ? flat : flat.substring(0, MAX_SUMMARY) + "…";
    }

    private static ObjectNode message(String role, String content) {
        ObjectNode message = JSON.createObjectNode();
        message.put("role", role);
        message.put("content", content);
        return message;
    }

    private static long tokens(String text) {
        return (text.length() + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
    }

    /** A prompt file's text, read once. */
    private String text(String location) {
        return prompts.computeIfAbsent(location, ChatPrompt::read);
    }

    private static String read(String location) {
        try {
            if (location.startsWith("classpath:")) {
                String resource = location.substring("classpath:".length()).replaceFirst("^/", "");
                try (InputStream in = ChatPrompt.class.getClassLoader().getResourceAsStream(resource)) {
                    if (in == null) {
                        throw new IllegalArgumentException("No system prompt at " + location);
                    }
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return Files.readString(Path.of(location.startsWith("file:") ? location.substring(5) : location));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the system prompt " + location, e);
        }
    }
}
