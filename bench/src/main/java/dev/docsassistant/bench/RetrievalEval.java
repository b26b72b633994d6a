package dev.docsassistant.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.search.DocsFolder;
import dev.docsassistant.search.DomainIndex;
import dev.docsassistant.search.Page;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.SearchQuery;
import dev.docsassistant.search.Section;

/**
 * Issue 54's retrieval evaluation ({@code RUNNER=RetrievalEval bench/eval/answers.sh}), in-process on the compiled
 * classes: asks the questions as the assistant's retrieval does (the question's filter, else the site's default
 * language and version, no boost, the chat's page size) and reports per set and per kind (or half):
 * <ul>
 * <li>for page sets ({@code {"q", "relevant": [paths], "kind"}}, eval-dev and bench/eval): hit@5 and MRR@10 of the
 * first relevant page (pageSize 10, as bench/retrieval.mjs asks);</li>
 * <li>for answer sets ({@code answers-*.jsonl}, {@code "answer": ["page.mdx#Heading"]}, covered questions only):
 * section first (the first hit's first section is one that answers), page first, and section within the page (the
 * first hit of an answering page shows an answering section first).</li>
 * </ul>
 * A file's name before its first {@code -} (after {@code answers-}) is its domain: {@code demo} is the bundled guide,
 * any other the folder {@code <domain>-docs} of the corpus. MISSES=1 lists each miss on stderr.
 * <p>
 * Usage: {@code RetrievalEval <corpus-dir> <rounds, unused: no timings> <answer file>…}: the answer files, then every
 * page set of bench/eval and of the corpus's eval-dev (when there).
 */
public final class RetrievalEval {

    private static final String SITE = "https://eval.invalid";

    private static final class Tally {
        int questions, hits, pageFirst, sectionFirst, pageFound, sectionInPage;
        double rr;
    }

    public static void main(String[] args) throws Exception {
        Path corpus = Path.of(args[0]);
        ObjectMapper json = new ObjectMapper();
        Map<String, DomainIndex> indexes = new HashMap<>();
        boolean misses = System.getenv("MISSES") != null;
        System.out.println("| set | kind or half | questions | hit@5 | MRR@10 | page first | section first"
                + " | section within page |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        List<Path> files = new ArrayList<>();
        for (int f = 2; f < args.length; f++) {
            files.add(Path.of(args[f]));
        }
        for (Path dir : List.of(Path.of("bench/eval"), corpus.resolve("eval-dev"))) {
            if (Files.isDirectory(dir)) {
                try (var listed = Files.list(dir)) {
                    listed.filter(p -> p.toString().endsWith(".jsonl"))
                            .filter(p -> !p.getFileName().toString().startsWith("answers-"))
                            .filter(p -> p.getFileName().toString().startsWith("demo-")
                                    || Files.isDirectory(corpus.resolve("mintlify-docs")))
                            .sorted().forEach(files::add);
                }
            }
        }
        for (Path file : files) {
            boolean answers = file.getFileName().toString().startsWith("answers-");
            String domain = file.getFileName().toString().replaceFirst("^answers-", "").split("[-.]")[0];
            String location = domain.equals("demo") ? "classpath:demo-docs"
                    : corpus.resolve(domain + "-docs").toString();
            DomainIndex index = indexes.get(domain);
            if (index == null) {
                index = DomainIndex.build(DocsFolder.read(location), SITE, true, Map.of());
                indexes.put(domain, index);
            }
            Map<String, Tally> groups = new LinkedHashMap<>();
            Tally all = new Tally();
            for (String line : Files.readAllLines(file)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode q = json.readTree(line);
                if (answers && q.get("answer").isEmpty()) {
                    continue; // uncovered: nothing to find
                }
                String question = q.get("q").asText();
                JsonNode filter = q.path("filter");
                SearchQuery query = new SearchQuery(question, "", "", text(filter, "language"),
                        text(filter, "version"), List.of(), null, answers ? ChatRequest.DEFAULT_PAGE_SIZE : 10, 0);
                List<SearchHit> hits = index.search(query);
                Tally group = groups.computeIfAbsent(answers ? q.path("half").asText("tuned")
                        : q.path("kind").asText("-"), k -> new Tally());
                for (Tally tally : List.of(group, all)) {
                    tally.questions++;
                }
                if (answers) {
                    List<String> expected = new ArrayList<>();
                    for (JsonNode section : q.get("answer")) {
                        expected.add(target(index, section.asText()));
                    }
                    expected.removeIf(Objects::isNull);
                    List<String> pages = expected.stream().map(e -> e.split("#")[0]).toList();
                    String first = hits.isEmpty() ? "(none)" : hits.get(0).path() + anchor(hits.get(0));
                    SearchHit page = hits.stream().filter(hit -> pages.contains(hit.path())).findFirst().orElse(null);
                    for (Tally tally : List.of(group, all)) {
                        tally.sectionFirst += expected.contains(first) ? 1 : 0;
                        tally.pageFirst += !hits.isEmpty() && pages.contains(hits.get(0).path()) ? 1 : 0;
                        tally.pageFound += page == null ? 0 : 1;
                        tally.sectionInPage += page != null && expected.contains(page.path() + anchor(page)) ? 1 : 0;
                    }
                    if (misses && !expected.contains(first)) {
                        // as AnswerEval: the half first, so MISSES=1 (answers.sh) leaves out the measured half's
                        System.err.println("  " + q.path("half").asText("tuned") + " section: " + question + " -> "
                                + first + " (want " + expected + ")");
                    }
                } else {
                    List<String> wanted = new ArrayList<>();
                    q.get("relevant").forEach(path -> wanted.add(route(path.asText())));
                    int rank = -1;
                    for (int i = 0; i < hits.size() && rank < 0; i++) {
                        rank = wanted.contains(hits.get(i).path()) ? i : -1;
                    }
                    for (Tally tally : List.of(group, all)) {
                        tally.hits += rank >= 0 && rank < 5 ? 1 : 0;
                        tally.rr += rank >= 0 ? 1.0 / (rank + 1) : 0;
                    }
                    if (misses && (rank < 0 || rank >= 5)) {
                        System.err.println("  page: " + question + " -> " + (rank < 0 ? ">10" : rank + 1) + " "
                                + hits.stream().limit(3).map(SearchHit::path).toList() + " (want " + wanted + ")");
                    }
                }
            }
            groups.put("all", all);
            String name = file.getFileName().toString();
            groups.forEach((group, t) -> System.out.printf(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %s |%n",
                    name, group, t.questions, answers ? "-" : ratio(t.hits, t.questions),
                    answers ? "-" : String.format(Locale.ROOT, "%.3f", t.rr / t.questions),
                    answers ? ratio(t.pageFirst, t.questions) : "-", answers ? ratio(t.sectionFirst, t.questions) : "-",
                    answers ? ratio(t.sectionInPage, t.pageFound) : "-"));
        }
        System.exit(0); // the embedders are daemon threads
    }

    private static String anchor(SearchHit hit) {
        return hit.anchor().isEmpty() ? "" : "#" + hit.anchor();
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    private static String ratio(int n, int of) {
        return of == 0 ? "-" : String.format(Locale.ROOT, "%.2f (%d/%d)", (double) n / of, n, of);
    }

    private static String route(String path) {
        return "/" + path.replaceFirst("\\.mdx?$", "").replaceFirst("(^|/)index$", "").replaceFirst("/$", "");
    }

    /** {@code guides/models.mdx#Answer with a local Ollama} as route and anchor; null if the page lacks the heading. */
    private static String target(DomainIndex index, String section) {
        String route = route(section.split("#", 2)[0]);
        String heading = section.contains("#") ? section.split("#", 2)[1] : "";
        Page page = index.pages().stream().filter(p -> p.path().equals(route)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no page " + route));
        if (heading.isEmpty()) {
            return route;
        }
        return page.sections().stream()
                .filter(s -> !s.headings().isEmpty()
                        && s.headings().get(s.headings().size() - 1).replace("`", "").equals(heading.replace("`", "")))
                .map(Section::anchor).findFirst().map(anchor -> route + "#" + anchor).orElse(null);
    }
}
