package dev.docsassistant.model;

import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.github.benmanes.caffeine.cache.Cache;
import dev.docsassistant.ground.Caches;
import dev.docsassistant.search.Analyzers;
import dev.docsassistant.search.SearchHit;
import dev.docsassistant.search.Section;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * The offline default: no language model, just the documentation itself. It answers with the sentences, list items
 * and table rows of the best section (of the near-tied best pages, that naming most of the question's words) that
 * share the most words with the question, as the Markdown they are, then
 * the section's code where the question asks how and the code is about it, then the page quoted (the one source).
 * When the best section is neither close in meaning nor shares the question's words, it says the docs do not cover
 * the question, with no source: such a turn is recorded as unanswered for the docs team.
 */
public class ExtractiveModel implements AnswerModel {

    /** The whole answer when no section answers the question: the docs do not cover it (a gap). */
    public static final String NOT_FOUND = "I could not find this in the documentation.";

    /**
     * A section answers when its page's closest passage is this close in meaning to the question (cosine), or
     * {@link #CLOSE} and it holds {@link #SHARED_TERMS} of the question's words. Tuned on bench/eval's development
     * sets (BENCHMARKS.md): on the guide, off-topic questions' best pages score 0.12-0.34, covered ones 0.21-0.78;
     * 0.45 and half the words declined 11 of 39 corpus questions asked in a user's words.
     */
    static final double CLOSE_ENOUGH = 0.35;
    static final double CLOSE = 0.25;
    static final double SHARED_TERMS = 0.34;
    /**
     * A short question (at most {@link #SHORT_QUESTION} words of substance) names what it asks in those words: a
     * section holding fewer than half of them, and not {@link #CLEARLY_CLOSE} in meaning, is about its setting, not
     * about what it asks ("reset my password on the dashboard" met the dashboard's page at 0.405). Longer questions,
     * asked in a user's words, share fewer words with the section that answers them and are not held to it.
     */
    static final int SHORT_QUESTION = 4;
    static final double CLEARLY_CLOSE = 0.45;
    static final double SHORT_SHARED_TERMS = 0.5;
    /**
     * Without a similarity (a language the model does not embed, semantic search off), the words alone decide, more
     * leniently: no development set is searched by words only, so this declines only a section holding less than a
     * quarter of the question's words, as an off-topic question's best section does.
     */
    static final double SHARED_TERMS_ALONE = 0.25;

    /** Pages scoring at least this share of the search's first compete for the quote ({@link #choose}). */
    static final double NEAR_TIE = 0.9;
    /**
     * A question word a page's code holds weighs this many times in {@link #choose}: the command does what is asked
     * ({@code curl -X DELETE …/threads} for "delete their conversations").
     */
    private static final double IN_CODE = 2;
    /** Page weights closer than this share of the best are tied in {@link #choose}: the search's order breaks it. */
    private static final double TIE = 1e-9;
    private static final int MAX_UNITS = 4;
    /**
     * The prose quoted before the code a "how" question asks for, in characters (its best unit always): the command
     * comes within the answer's first screen (600 characters), not after a page of prose.
     */
    static final int PROSE_BEFORE_CODE = 300;
    /**
     * A table row is quoted only when it holds a question word no other unit of the section has, or several: a
     * reference table is quoted when the question is about one of its rows, not for a word every row repeats.
     */
    private static final double ROW_WEIGHT = 1;
    private static final int MAX_CODE_LINES = 14;
    /** Words asking for a value: a default, an amount, a bound, a rate ({@link #doing}). */
    private static final Pattern VALUE_WORDS = Pattern.compile("\\b(default|how (many|much|long|often|large|big)"
            + "|maximum|minimum|max|min|limit|limits|quota|timeout|size|hourly|daily|weekly|monthly)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern DIGIT = Pattern.compile("\\d");
    /** Words asking how, or for a command, variable or example: whole words ("add", not the start of "address"). */
    private static final Pattern CODE_WORDS = Pattern.compile("\\b(how|example|configure|set up|setup|add|use|deploy"
            + "|run|install|command|variable|syntax|snippet|script|code)\\b", Pattern.CASE_INSENSITIVE);
    /**
     * Joints of identifiers ({@code CAMEL_SERVER_PORT}, {@code camel.server.port}, {@code allowedOrigins}), whose
     * parts a reader names.
     */
    private static final Pattern IDENTIFIER_JOINTS = Pattern.compile("[_.]|(?<=\\p{Ll})(?=\\p{Lu})");
    /**
     * A word that may be an identifier, and its parts: {@code assistant.routes-dir}, {@code ASSISTANT_ROUTES_DIR},
     * {@code X-Docs-Team}, {@code allowedOrigins} ({@link #names}).
     */
    private static final Pattern IDENTIFIER = Pattern.compile("[\\p{L}\\p{N}]+(?:[-_.][\\p{L}\\p{N}]+)*");
    private static final Pattern PARTS = Pattern.compile("[-_.]|(?<=\\p{Ll})(?=\\p{Lu})");
    private static final int WORDS_PER_DELTA = 4;
    /** A code block's opening fence ({@code ```bash}), as the parser writes it: backticks only. */
    private static final Pattern FENCE = Pattern.compile("(`{3,}).*");
    /**
     * A rate named as an adverb, which the stemmer keeps apart from its noun ("hourly" is "hourli", "hour" is
     * "hour"): read as the noun, so "the hourly limit" meets "per hour".
     */
    private static final Pattern RATE = Pattern.compile("\\b(?:(hour|week|month|year|night)ly|daily)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern DELIMITER_ROW = Pattern.compile("^\\|?(\\s*:?-{3,}:?\\s*\\|)+\\s*(:?-{3,}:?\\s*)?$");

    /** The most heap the units of section texts take: those of a few thousand sections. */
    private static final long UNITS_BYTES = 8L << 20;

    private final Analyzer analyzer = new EnglishAnalyzer();
    private final Set<String> questionWords = Analyzers.questionWords("en", analyzer);
    /**
     * What the model reads of each section, computed once: splitting and analyzing the quoted sections' sentences,
     * prose and code was the model's main cost. Keys are weak (by identity), so sections of a replaced index are let
     * go; the key is the index's section, counted with the index.
     */
    private final Cache<Section, Passage> passages = Caches.<Section, Passage>weighed(UNITS_BYTES,
            (section, passage) -> passage.bytes()).weakKeys().build();

    /** What a section's text is made of, in Markdown. */
    enum Kind { SENTENCE, ITEM, HEADER, ROW }

    /**
     * A quotable part of a section: a sentence of a paragraph, a list item, a table's header (with its delimiter
     * row) or one of its rows. {@code block} numbers the paragraph, list item or table it belongs to;
     * {@code codeNames} are the identifiers of the section's code it names ({@link #names}).
     */
    record Unit(Kind kind, int block, String text, Set<String> terms, Set<String> codeNames) {

        /** Its text, and each term and name with its slot in the set ({@link Caches}' estimate). */
        long bytes() {
            return 4L * Caches.OBJECT + Caches.bytes(text) + termBytes(terms) + termBytes(codeNames);
        }
    }

    /**
     * A section as the model reads it: its units; the terms of its page's title, headings, prose and code (what
     * decides whether it answers and which near-tied section does); and those of its code alone.
     */
    record Passage(List<Unit> units, Set<String> terms, Set<String> codeTerms) {

        long bytes() {
            return 3L * Caches.OBJECT + units.stream().mapToLong(Unit::bytes).sum() + termBytes(terms)
                    + termBytes(codeTerms);
        }
    }

    /** Each term with its slot in the set ({@link Caches}' estimate). */
    private static long termBytes(Set<String> terms) {
        return terms.stream().mapToLong(term -> 2L * Caches.REFERENCE + Caches.bytes(term)).sum();
    }

    @Override
    public ModelReply answer(ModelRequest request) {
        String question = request.chat().question();
        Set<String> terms = terms(question);
        terms.removeAll(questionWords);
        List<SearchHit> hits = request.search().hits();
        List<Source> sources = new ArrayList<>();
        StringBuilder answer = new StringBuilder();
        if (hits.isEmpty() || !answers(hits.get(0), passage(hits.get(0), hits.get(0).sections().get(0)), terms)) {
            answer.append(NOT_FOUND);
        } else {
            SearchHit hit = choose(hits, terms);
            Section section = hit.sections().get(0);
            Passage passage = passage(hit, section);
            String code = firstLines(section.code());
            boolean askedCode = !code.isEmpty() && asksForCode(question)
                    && passage.codeTerms().stream().anyMatch(terms::contains);
            String quote = quote(passage.units(), terms, askedCode,
                    askedCode ? PROSE_BEFORE_CODE : Integer.MAX_VALUE, doing(question));
            // a code block only when the section's prose says nothing, or it is asked for and about the question;
            // then it leads when no sentence names the question's words: the command does it, the prose around it
            // is about something else
            boolean withCode = !code.isEmpty() && (quote.isEmpty() || askedCode);
            boolean codeFirst = withCode && passage.units().stream()
                    .noneMatch(unit -> unit.terms().stream().anyMatch(terms::contains));
            if (codeFirst) {
                answer.append(code).append(quote.isEmpty() ? "" : "\n\n").append(quote);
            } else {
                answer.append(quote).append(withCode ? (quote.isEmpty() ? "" : "\n\n") + code : "");
            }
            sources.add(new Source("src-1", hit.url(), hit.title()));
            answer.append("\n\nQuoted from ").append(link(hit, section))
                    .append(" (an excerpt-based answer: no language model wrote it).");
        }
        String text = answer.toString();
        // the prompt's estimate, so usage is never reported as zero
        long prompt = ChatPrompt.tokens(question) + hits.stream()
                .mapToLong(h -> ChatPrompt.tokens(h.text()) + ChatPrompt.tokens(h.code())).sum();
        return new PreparedReply(sources, deltas(text), new Usage(prompt, ChatPrompt.tokens(text)));
    }

    /**
     * The page quoted: of the pages the search ranks nearly as high as its first ({@link #NEAR_TIE}), the one whose
     * shown sections hold the most of the question's words, each weighing by its rarity among those pages (twice in
     * its code, {@link #IN_CODE}), times
     * the page's closeness in meaning (when compared by meaning: a page naming a word of the question but about
     * something else loses to one as rich in words and closer); the search's order breaks ties. When pages score alike, the one that names what the question names
     * ("index_loading", "demo key") answers it, not the one a few more common words put first. Within the page, the
     * search's first section (by words, meaning and headings) is quoted: the section holding the most words, or the
     * best single sentence, picked the wrong one more often (BENCHMARKS.md).
     */
    private SearchHit choose(List<SearchHit> hits, Set<String> terms) {
        double first = hits.get(0).score();
        List<SearchHit> near = hits.stream().filter(hit -> hit.score() >= NEAR_TIE * first).toList();
        List<Set<String>> held = new ArrayList<>();
        List<Set<String>> inCode = new ArrayList<>();
        Map<String, Integer> holding = new HashMap<>();
        for (SearchHit hit : near) {
            Set<String> page = new HashSet<>();
            Set<String> code = new HashSet<>();
            for (Section section : hit.sections()) {
                Passage passage = passage(hit, section);
                passage.terms().stream().filter(terms::contains).forEach(page::add);
                passage.codeTerms().stream().filter(terms::contains).forEach(code::add);
            }
            page.forEach(term -> holding.merge(term, 1, Integer::sum));
            held.add(page);
            inCode.add(code);
        }
        int best = 0;
        double bestWeight = -1;
        for (int i = 0; i < near.size(); i++) {
            Set<String> code = inCode.get(i);
            double weight = held.get(i).stream()
                    .mapToDouble(term -> (code.contains(term) ? IN_CODE : 1) / holding.get(term)).sum()
                    * (Double.isNaN(near.get(i).similarity()) ? 1 : near.get(i).similarity());
            // weights equal but for the order their terms were summed in (a set's order varies by run) are a tie
            if (weight > bestWeight + TIE * Math.abs(bestWeight)) {
                best = i;
                bestWeight = weight;
            }
        }
        return near.get(best);
    }

    private Passage passage(SearchHit hit, Section section) {
        return passages.get(section, s -> new Passage(units(s.text(), names(firstLines(s.code()))),
                Set.copyOf(terms(hit.title() + "\n" + String.join("\n", s.headings()) + "\n" + s.words() + "\n"
                        + s.codeLines())), Set.copyOf(terms(s.codeLines()))));
    }

    /**
     * Whether the hit's best section answers: close in meaning, or fairly close and holding the question's words
     * (its page title and headings count: a reader reads the section under them).
     */
    private static boolean answers(SearchHit hit, Passage passage, Set<String> terms) {
        long shared = terms.stream().filter(passage.terms()::contains).count();
        double share = terms.isEmpty() ? 0 : (double) shared / terms.size();
        if (Double.isNaN(hit.similarity())) {
            return share >= SHARED_TERMS_ALONE;
        }
        if (terms.size() <= SHORT_QUESTION && share < SHORT_SHARED_TERMS && hit.similarity() < CLEARLY_CLOSE) {
            return false;
        }
        return hit.similarity() >= CLOSE_ENOUGH || hit.similarity() >= CLOSE && share >= SHARED_TERMS;
    }

    /** What a title (the docs author's text) must not bring into the link as Markdown or HTML: escaped. */
    private static final Pattern MARKDOWN_PUNCTUATION = Pattern.compile("[\\\\`*_{}\\[\\]()<>#!|~&]");

    private static String link(SearchHit hit, Section section) {
        String title = section.headings().isEmpty() ? hit.title()
                : hit.title() + " › " + section.headings().get(section.headings().size() - 1);
        String target = section.anchor().isEmpty() ? hit.url() : hit.url() + "#" + section.anchor();
        return "[" + MARKDOWN_PUNCTUATION.matcher(title).replaceAll("\\\\$0") + "](" + target + ")";
    }

    /**
     * The units that do what the question asks, which {@link #quote} takes before those merely sharing more of its
     * words (the setting or the number answers, not the sentence repeating the question): for
     * a default, amount or bound ({@link #VALUE_WORDS}), a unit holding a number; for how to do something
     * ({@link #CODE_WORDS}), a unit naming a property, command or value in code ({@code `camel.server.port`}).
     */
    private static Predicate<Unit> doing(String question) {
        Predicate<Unit> doing = unit -> false;
        if (VALUE_WORDS.matcher(question).find()) {
            doing = doing.or(unit -> unit.terms().stream().anyMatch(term -> DIGIT.matcher(term).find()));
        }
        if (asksForCode(question)) {
            doing = doing.or(unit -> unit.text().indexOf('`') >= 0);
        }
        return doing;
    }

    /** Whether the question asks how to do something, or for a command, variable or example. */
    private static boolean asksForCode(String question) {
        return CODE_WORDS.matcher(question).find();
    }

    /**
     * The units sharing the most question terms, each weighing by its rarity in the section, those doing what the
     * question asks first ({@link #doing}; {@link #MAX_UNITS};
     * the section's opening ones when none does), in
     * the section's order and as the Markdown they were: sentences of one paragraph joined, list items one a line,
     * table rows under their table's header. With the code, an identifier of the code a unit names counts as a
     * question term: the sentence saying what the code's {@code ASSISTANT_ROUTES_DIR} does
     * ("{@code assistant.routes-dir} names the folder") explains the command, whether or not it repeats the question.
     */
    static String quote(List<Unit> units, Set<String> terms, boolean withCode, int budget, Predicate<Unit> doing) {
        Map<Unit, List<String>> matched = new HashMap<>();
        Map<String, Integer> unitsWith = new HashMap<>();
        for (Unit unit : units) {
            List<String> matches = Stream.concat(unit.terms().stream().filter(terms::contains),
                    withCode ? unit.codeNames().stream() : Stream.empty()).toList();
            matched.put(unit, matches);
            matches.forEach(term -> unitsWith.merge(term, 1, Integer::sum));
        }
        // a term weighs by its rarity in the section: "401" says more than the "step" every row repeats
        Map<Unit, Double> weight = new HashMap<>();
        for (Unit unit : units) {
            weight.put(unit, matched.get(unit).stream().mapToDouble(term -> 1.0 / unitsWith.get(term)).sum());
        }
        List<Unit> quotable = units.stream().filter(unit -> unit.kind() == Kind.ROW ? weight.get(unit) >= ROW_WEIGHT
                : unit.kind() != Kind.HEADER && weight.get(unit) > 0).toList();
        Set<Unit> chosen = new HashSet<>();
        int length = 0;
        // the units doing what the question asks first, then by weight
        for (Unit unit : quotable.stream().sorted(Comparator.comparing((Unit unit) -> !doing.test(unit))
                .thenComparing(Comparator.comparingDouble((Unit unit) -> weight.get(unit)).reversed())).toList()) {
            if (chosen.size() < MAX_UNITS && (chosen.isEmpty() || length + unit.text().length() <= budget)) {
                chosen.add(unit);
                length += unit.text().length();
            }
        }
        if (chosen.isEmpty()) { // the section's opening: its first sentences or items, else its first rows
            units.stream().filter(unit -> unit.kind() == Kind.SENTENCE || unit.kind() == Kind.ITEM).limit(2)
                    .forEach(chosen::add);
        }
        if (chosen.isEmpty()) {
            units.stream().filter(unit -> unit.kind() == Kind.ROW).limit(MAX_UNITS).forEach(chosen::add);
        }
        StringBuilder quote = new StringBuilder();
        Unit previous = null;
        for (Unit unit : units) {
            boolean header = unit.kind() == Kind.HEADER && units.stream().anyMatch(row -> row.kind() == Kind.ROW
                    && row.block() == unit.block() && chosen.contains(row));
            if (!chosen.contains(unit) && !header) {
                continue;
            }
            if (previous != null) {
                boolean sameParagraph = unit.kind() == Kind.SENTENCE && previous.kind() == Kind.SENTENCE
                        && unit.block() == previous.block();
                boolean sameList = unit.kind() == Kind.ITEM && previous.kind() == Kind.ITEM
                        && unit.block() == previous.block() + 1;
                boolean sameTable = unit.kind() == Kind.ROW && unit.block() == previous.block();
                quote.append(sameParagraph ? " " : sameList || sameTable ? "\n" : "\n\n");
            }
            quote.append(unit.text());
            previous = unit;
        }
        return quote.toString();
    }

    /**
     * A section's text cut into units: each line is a paragraph, a list item ({@code - }) or a table's row.
     *
     * @param codeNames the identifiers of the section's code as an answer shows it ({@link #names})
     */
    List<Unit> units(String text, Set<String> codeNames) {
        List<Unit> units = new ArrayList<>();
        BreakIterator boundaries = BreakIterator.getSentenceInstance(Locale.ENGLISH);
        String[] lines = text.split("\n");
        int block = 0;
        for (int i = 0; i < lines.length; i++, block++) {
            String line = lines[i].strip();
            if (line.startsWith("|")) {
                int table = block;
                if (i + 1 < lines.length && DELIMITER_ROW.matcher(lines[i + 1].strip()).matches()) {
                    units.add(new Unit(Kind.HEADER, table, line + "\n" + lines[++i].strip(), Set.of(), Set.of()));
                }
                while (i + 1 < lines.length && lines[i + 1].strip().startsWith("|")) {
                    String row = lines[++i].strip();
                    units.add(unit(Kind.ROW, table, row, codeNames));
                }
            } else if (line.startsWith("- ")) {
                units.add(unit(Kind.ITEM, block, line, codeNames));
            } else {
                String flat = WHITESPACE.matcher(line).replaceAll(" ");
                // sentences end outside code: `domain.<id>.error` is not cut after its first dot
                boundaries.setText(Section.CODE_SPAN.matcher(flat)
                        .replaceAll(span -> "x".repeat(span.group().length())));
                for (int start = boundaries.first(), end = boundaries.next(); end != BreakIterator.DONE;
                        start = end, end = boundaries.next()) {
                    String sentence = flat.substring(start, end).strip();
                    if (sentence.length() > 2) {
                        units.add(unit(Kind.SENTENCE, block, sentence, codeNames));
                    }
                }
            }
        }
        return List.copyOf(units);
    }

    /** A unit quoted as the Markdown it is, matched by the words a reader reads (not its links' targets). */
    private Unit unit(Kind kind, int block, String text, Set<String> codeNames) {
        String words = Section.words(text);
        Set<String> named = names(words);
        named.retainAll(codeNames);
        return new Unit(kind, block, text, Set.copyOf(terms(words)), Set.copyOf(named));
    }

    /**
     * The text's identifiers, each as its lower-case parts joined by {@code -}, however it is spelled: a property
     * ({@code assistant.routes-dir}), its environment variable ({@code ASSISTANT_ROUTES_DIR}), a header
     * ({@code X-Docs-Team}), a camelCase name ({@code allowedOrigins}). An identifier has at least two parts of two
     * characters or more, joined by {@code -}, {@code _} or {@code .}, or a camelCase word starting lower-case (so
     * "e.g." or "GitHub" is none).
     */
    static Set<String> names(String text) {
        Set<String> names = new HashSet<>();
        Matcher word = IDENTIFIER.matcher(text);
        while (word.find()) {
            String[] parts = PARTS.split(word.group());
            boolean joined = word.group().chars().anyMatch(c -> "-_.".indexOf(c) >= 0)
                    || Character.isLowerCase(word.group().charAt(0));
            if (joined && Stream.of(parts).filter(part -> part.length() >= 2).count() >= 2) {
                names.add(String.join("-", parts).toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

    /**
     * The text's terms, and those of its identifiers' parts ({@code origin_not_allowed}: origin, allow;
     * {@code allowedOrigins}: allow, origin).
     */
    private Set<String> terms(String text) {
        text = RATE.matcher(text).replaceAll(rate -> rate.group(1) == null ? "day" : rate.group(1));
        Set<String> terms = new HashSet<>(Analyzers.terms(analyzer, text, Integer.MAX_VALUE));
        terms.addAll(Analyzers.terms(analyzer, IDENTIFIER_JOINTS.matcher(text).replaceAll(" "), Integer.MAX_VALUE));
        return terms;
    }

    /** The answer cut into deltas of a few words, as a model would stream it. */
    static List<String> deltas(String text) {
        List<String> deltas = new ArrayList<>();
        int start = 0;
        int words = 0;
        for (int i = 0; i < text.length(); i++) {
            if (Character.isWhitespace(text.charAt(i)) && (i + 1 == text.length()
                    || !Character.isWhitespace(text.charAt(i + 1))) && ++words == WORDS_PER_DELTA) {
                deltas.add(text.substring(start, i + 1));
                start = i + 1;
                words = 0;
            }
        }
        if (start < text.length()) {
            deltas.add(text.substring(start));
        }
        return deltas;
    }

    /**
     * The first {@link #MAX_CODE_LINES} lines of the section's fenced blocks, each block with its fence and language
     * as written; a block cut short is closed with its fence.
     */
    private static String firstLines(String code) {
        List<String> lines = new ArrayList<>();
        String fence = null;
        int codeLines = 0;
        for (String line : code.lines().toList()) {
            Matcher marker = FENCE.matcher(line);
            if (fence == null && marker.matches()) {
                if (codeLines >= MAX_CODE_LINES) {
                    break;
                }
                fence = marker.group(1);
            } else if (fence != null && line.strip().equals(fence)) {
                fence = null;
            } else if (fence != null && ++codeLines > MAX_CODE_LINES) {
                lines.add(fence);
                fence = null;
                break;
            }
            lines.add(line);
        }
        if (fence != null) {
            lines.add(fence);
        }
        return String.join("\n", lines).strip();
    }

    /** A reply computed up front, handed out delta by delta, in one step. */
    private record PreparedReply(List<Source> sources, Iterator<ModelEvent> pending, Usage usage) implements ModelReply {

        PreparedReply(List<Source> sources, List<String> deltas, Usage usage) {
            this(sources, Stream.<ModelEvent>concat(deltas.stream().map(ModelEvent.Text::new),
                    Stream.of(new ModelEvent.StepEnd(ModelEvent.StepEnd.STOP, usage))).iterator(), usage);
        }

        @Override
        public ModelEvent next() {
            return pending.hasNext() ? pending.next() : null;
        }

        @Override
        public boolean ready() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
