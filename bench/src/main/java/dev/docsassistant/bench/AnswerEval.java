package dev.docsassistant.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.model.ExtractiveModel;
import dev.docsassistant.model.ModelEvent;
import dev.docsassistant.model.ModelReply;
import dev.docsassistant.model.ModelRequest;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.MessagePart;
import dev.docsassistant.request.Role;
import dev.docsassistant.request.UiMessage;
import dev.docsassistant.search.DocsFolder;
import dev.docsassistant.search.DomainIndex;
import dev.docsassistant.search.Page;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.SearchQuery;
import dev.docsassistant.search.SearchResult;
import dev.docsassistant.search.Section;

/**
 * Issue 40's answer evaluation (bench/eval/answers.sh): asks the offline extractive model the questions of
 * {@code bench/eval/answers-*.jsonl} as the service does (the domain's index, the request's page size, the model) and
 * reports per set: section hit@1 (the first section the answer quotes is one that answers), the share of answers
 * holding their key string and holding it within their first 600 characters, covered questions declined, uncovered
 * questions declined, and answers with a flattened table. Then answers/s over every question (search and answer).
 * <p>
 * A line: {@code {"q", "answer": ["page.mdx#Heading", …] (the sections that answer it, no heading for the intro),
 * "key": "string" (or a list of its spellings), "filter": {"version"|"language"}, "half": "tuned"|"measured"}}; an
 * uncovered question has {@code "answer": []} and no key. Each set is reported in two halves, fixed in the files: the
 * questions a change may be tuned on, and those only measured (a change is kept only if the measured half holds).
 * A file's name after {@code answers-} and before the next {@code -} or {@code .} is its domain: {@code demo} is the
 * bundled guide, any other the folder {@code <domain>-docs} of the corpus.
 * <p>
 * Usage: {@code AnswerEval <corpus-dir> <rounds> <file>…}
 */
public final class AnswerEval {

    private static final String SITE = "https://eval.invalid";
    private static final int FIRST_CHARS = 600;
    private static final Pattern SITE_LINK = Pattern.compile("\\]\\(" + Pattern.quote(SITE) + "(/[^)#\\s]*)(#[^)\\s]*)?\\)");
    /** A table's delimiter row ({@code | --- | --- |}) sharing its line with anything else: a flattened table. */
    private static final Pattern DELIMITER = Pattern.compile("\\|\\s*:?-{3,}:?\\s*\\|");
    private static final Pattern DELIMITER_ROW = Pattern.compile("^\\s*\\|?(\\s*:?-{3,}:?\\s*\\|)+\\s*(:?-{3,}:?\\s*)?$");

    private record Answer(String text, int sources) {
    }

    /** One half's counts: questions tuned on ({@code "half": "tuned"}, the default) or only measured. */
    private static final class Tally {
        int covered, sectionHits, pageHits, keys, early, wronglyDeclined, uncovered, declined, flattened;
    }

    public static void main(String[] args) throws Exception {
        Path corpus = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        ObjectMapper json = new ObjectMapper();
        ExtractiveModel model = new ExtractiveModel();
        Map<String, DomainIndex> indexes = new HashMap<>();
        Map<String, List<Page>> pagesOf = new HashMap<>();
        List<Runnable> asked = new ArrayList<>();
        System.out.println("| set | half | covered | section hit@1 | page hit@1 | key in answer | key in first 600 | covered declined | uncovered | uncovered declined | flattened tables |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (int f = 2; f < args.length; f++) {
            Path file = Path.of(args[f]);
            String domain = file.getFileName().toString().replaceFirst("^answers-", "").split("[-.]")[0];
            String location = domain.equals("demo") ? "classpath:demo-docs"
                    : corpus.resolve(domain + "-docs").toString();
            if (!indexes.containsKey(domain)) {
                var docs = DocsFolder.read(location);
                pagesOf.put(domain, docs.pages());
                indexes.put(domain, DomainIndex.build(docs, SITE, true, Map.of()));
            }
            DomainIndex index = indexes.get(domain);
            Map<String, Tally> halves = new java.util.LinkedHashMap<>();
            halves.put("tuned", new Tally());
            halves.put("measured", new Tally());
            StringBuilder misses = new StringBuilder();
            for (String line : Files.readAllLines(file)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode q = json.readTree(line);
                String question = q.get("q").asText();
                String half = q.path("half").asText("tuned");
                Tally tally = halves.get(half);
                JsonNode filter = q.path("filter");
                SearchQuery query = new SearchQuery(question, "", "", text(filter, "language"), text(filter, "version"),
                        List.of(), null, ChatRequest.DEFAULT_PAGE_SIZE, 0);
                List<SearchHit> hits = index.search(query);
                ModelRequest request = request(question, new SearchResult(query, hits));
                Answer answer = answer(model, request);
                asked.add(() -> answer(model, new ModelRequest(null, request.chat(),
                        new SearchResult(query, index.search(query)))));
                boolean said = answer.sources() == 0 || answer.text().startsWith(ExtractiveModel.NOT_FOUND);
                if (System.getenv("SHOW") != null) {
                    System.err.println("### " + question + "\n" + answer.text() + "\n");
                }
                if (hasFlattenedTable(answer.text())) {
                    tally.flattened++;
                    misses.append("  ").append(half).append(" flattened: ").append(question).append('\n');
                }
                if (q.get("answer").isEmpty()) {
                    tally.uncovered++;
                    tally.declined += said ? 1 : 0;
                    if (!said) {
                        misses.append("  ").append(half).append(" answered uncovered: ").append(question).append(" -> ")
                                .append(firstSection(answer.text())).append('\n');
                    }
                    continue;
                }
                tally.covered++;
                tally.wronglyDeclined += said ? 1 : 0;
                String first = firstSection(answer.text());
                List<String> expected = new ArrayList<>();
                for (JsonNode section : q.get("answer")) {
                    expected.add(target(pagesOf.get(domain), section.asText()));
                }
                expected.removeIf(Objects::isNull);
                boolean sectionHit = expected.contains(first);
                tally.sectionHits += sectionHit ? 1 : 0;
                tally.pageHits += expected.stream().anyMatch(e -> e.split("#")[0].equals(first.split("#")[0])) ? 1 : 0;
                // the first of the key's spellings the answer holds (a key may be one string or a list of them)
                String key = "";
                int at = -1;
                for (JsonNode spelling : q.get("key").isArray() ? q.get("key") : json.createArrayNode().add(q.get("key"))) {
                    key = spelling.asText().toLowerCase(Locale.ROOT);
                    at = answer.text().toLowerCase(Locale.ROOT).indexOf(key);
                    if (at >= 0) {
                        break;
                    }
                }
                tally.keys += at >= 0 ? 1 : 0;
                tally.early += at >= 0 && at + key.length() <= FIRST_CHARS ? 1 : 0;
                if (!sectionHit || at < 0 || at + key.length() > FIRST_CHARS || said) {
                    misses.append("  ").append(half).append(' ').append(said ? "declined" : sectionHit ? "key " + (at < 0 ? "missing" : "late")
                            : "section").append(": ").append(question).append(" -> ").append(first)
                            .append(" (want ").append(expected.get(0)).append(")\n");
                }
            }
            halves.forEach((half, t) -> System.out.printf(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %d | %d | %s | %d |%n",
                    file.getFileName(), half, t.covered, ratio(t.sectionHits, t.covered), ratio(t.pageHits, t.covered),
                    ratio(t.keys, t.covered), ratio(t.early, t.covered), t.wronglyDeclined, t.uncovered,
                    ratio(t.declined, t.uncovered), t.flattened));
            System.err.print(misses);
        }
        if (rounds > 0) {
            asked.forEach(Runnable::run); // warm
            long start = System.nanoTime();
            for (int r = 0; r < rounds; r++) {
                asked.forEach(Runnable::run);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(Locale.ROOT, "answers/s (search and answer, one thread, %d rounds of %d): %.1f%n",
                    rounds, asked.size(), rounds * asked.size() / seconds);
        }
        System.exit(0); // the embedders are daemon threads, the index's executors may not be
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    private static String ratio(int n, int of) {
        return of == 0 ? "-" : String.format(Locale.ROOT, "%.2f (%d/%d)", (double) n / of, n, of);
    }

    /** {@code guides/models.mdx#Answer with a local Ollama} as the route and anchor the answer links to. */
    private static String target(List<Page> pages, String section) {
        String path = section.split("#", 2)[0];
        String heading = section.contains("#") ? section.split("#", 2)[1] : "";
        String route = "/" + path.replaceFirst("\\.mdx?$", "").replaceFirst("(^|/)index$", "");
        Page page = pages.stream().filter(p -> p.path().equals(route)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no page " + route));
        if (heading.isEmpty()) {
            return route;
        }
        return page.sections().stream()
                .filter(s -> !s.headings().isEmpty() && s.headings().get(s.headings().size() - 1).replace("`", "").equals(heading.replace("`", "")))
                .map(Section::anchor).findFirst().map(anchor -> route + "#" + anchor)
                .orElseGet(() -> {
                    System.err.println("# skipped: no section " + section + " among "
                            + page.sections().stream().map(Section::headings).toList());
                    return null;
                });
    }

    /** The first section the answer links to: route and anchor, or the route alone for a page's introduction. */
    private static String firstSection(String answer) {
        Matcher link = SITE_LINK.matcher(answer);
        return link.find() ? link.group(1) + (link.group(2) == null ? "" : link.group(2)) : "(none)";
    }

    static boolean hasFlattenedTable(String answer) {
        return answer.lines().anyMatch(line -> DELIMITER.matcher(line).find() && !DELIMITER_ROW.matcher(line).matches());
    }

    private static ModelRequest request(String question, SearchResult search) {
        UiMessage message = new UiMessage("m0", Role.USER, question, List.of(new MessagePart.Text(question)), null,
                null, null);
        ChatRequest chat = new ChatRequest("eval", List.of(message), null, null, null, null, List.of(), null);
        return new ModelRequest(null, chat, search);
    }

    private static Answer answer(ExtractiveModel model, ModelRequest request) {
        ModelReply reply = model.answer(request);
        StringBuilder text = new StringBuilder();
        try {
            for (ModelEvent event = reply.next(); event != null; event = reply.next()) {
                if (event instanceof ModelEvent.Text delta) {
                    text.append(delta.delta());
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new Answer(text.toString(), reply.sources().size());
    }
}
