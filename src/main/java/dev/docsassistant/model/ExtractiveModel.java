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
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.github.benmanes.caffeine.cache.Cache;
import dev.docsassistant.ground.Caches;
import dev.docsassistant.search.Analyzers;
import dev.docsassistant.search.SearchHit;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * The offline default: no language model, just the documentation itself. It quotes the sentences of the best
 * pages that share the most words with the question, adds a code example where the question asks how, names each
 * page, and says plainly that it is an excerpt-based answer.
 */
public class ExtractiveModel implements AnswerModel {

    /** Pages quoted: the best, and others scoring at least this share of it. */
    /** How the answer begins when no page matches the question: the docs do not cover it (a gap). */
    public static final String NOT_FOUND = "I could not find this in the documentation.";

    private static final int MAX_PAGES = 3;
    private static final double RELATIVE_SCORE = 0.5;
    private static final int SENTENCES_PER_PAGE = 2;
    private static final int MAX_CODE_LINES = 14;
    private static final int WORDS_PER_DELTA = 4;
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    /** The most heap the sentences of section texts take: those of a few thousand sections. */
    private static final long SENTENCES_BYTES = 8L << 20;

    private final Analyzer analyzer = new EnglishAnalyzer();
    /**
     * Sentences and terms per section text, computed once: splitting and analyzing every sentence of the quoted
     * pages was the model's main cost. Keys are weak (by identity), so texts of a replaced index are let go; the
     * key is the index's text, counted with the index.
     */
    private final Cache<String, List<Sentence>> sentencesOf = Caches.<String, List<Sentence>>weighed(SENTENCES_BYTES,
            (text, sentences) -> Caches.OBJECT + sentences.stream().mapToLong(Sentence::bytes).sum())
            .weakKeys().build();

    private record Sentence(String text, Set<String> terms) {

        /** Its text, and each term with its slot in the set ({@link Caches}' estimate). */
        long bytes() {
            return 2L * Caches.OBJECT + Caches.bytes(text)
                    + terms.stream().mapToLong(term -> 2L * Caches.REFERENCE + Caches.bytes(term)).sum();
        }
    }

    @Override
    public ModelReply answer(ModelRequest request) {
        String question = request.chat().question();
        List<SearchHit> hits = quoted(request.search().hits());
        List<Source> sources = new ArrayList<>();
        StringBuilder answer = new StringBuilder();
        if (hits.isEmpty()) {
            answer.append(NOT_FOUND).append(" Try asking with the words the docs use, "
                    + "or name the feature or setting you are after.");
        } else {
            answer.append("Here is what the documentation says (quoted from the most relevant pages; "
                    + "this is an excerpt-based answer, not a generated one).\n");
            Set<String> terms = terms(question);
            boolean wantsExample = asksHow(question);
            for (SearchHit hit : hits) {
                sources.add(new Source("src-" + (sources.size() + 1), hit.url(), hit.title()));
                answer.append("\n**").append(hit.title()).append("** (").append(link(hit)).append(")\n\n");
                for (String sentence : bestSentences(hit.text(), terms)) {
                    answer.append("> ").append(sentence).append('\n');
                }
                if (wantsExample && !hit.code().isEmpty()) {
                    answer.append("\n```\n").append(firstLines(hit.code())).append("\n```\n");
                }
            }
            if (request.search().hits().size() > hits.size()) {
                answer.append("\nRelated: ");
                request.search().hits().stream().skip(hits.size())
                        .forEach(h -> answer.append('[').append(h.title()).append("](").append(h.url()).append(") "));
                answer.setLength(answer.length() - 1);
                answer.append('\n');
            }
        }
        String text = answer.toString();
        // the prompt's estimate, so usage is never reported as zero
        long prompt = ChatPrompt.tokens(question) + request.search().hits().stream()
                .mapToLong(h -> ChatPrompt.tokens(h.text()) + ChatPrompt.tokens(h.code())).sum();
        return new PreparedReply(sources, deltas(text), new Usage(prompt, ChatPrompt.tokens(text)));
    }

    private static List<SearchHit> quoted(List<SearchHit> hits) {
        // scores are relative to the best hit already
        return hits.stream().limit(MAX_PAGES).filter(h -> h.score() >= RELATIVE_SCORE).toList();
    }

    private static String link(SearchHit hit) {
        String target = hit.anchor().isEmpty() ? hit.url() : hit.url() + "#" + hit.anchor();
        return "[" + hit.path() + "](" + target + ")";
    }

    private static boolean asksHow(String question) {
        String q = question.toLowerCase(Locale.ROOT);
        return q.contains("how") || q.contains("example") || q.contains("configure") || q.contains("set up")
                || q.contains("setup") || q.contains("add") || q.contains("use");
    }

    /** The sentences sharing the most question terms, in the order the page has them. */
    private List<String> bestSentences(String prose, Set<String> questionTerms) {
        List<Sentence> sentences = sentencesOf.get(prose, this::sentences);
        Map<String, Integer> scores = new HashMap<>();
        for (Sentence sentence : sentences) {
            int shared = 0;
            for (String term : sentence.terms()) {
                shared += questionTerms.contains(term) ? 1 : 0;
            }
            scores.put(sentence.text(), shared);
        }
        List<String> texts = sentences.stream().map(Sentence::text).toList();
        List<String> best = texts.stream()
                .sorted(Comparator.comparingInt((String s) -> scores.get(s)).reversed())
                .limit(SENTENCES_PER_PAGE)
                .toList();
        return texts.stream().filter(best::contains).toList();
    }

    /** A section's prose split into sentences, each with its analyzed terms. */
    private List<Sentence> sentences(String prose) {
        List<Sentence> sentences = new ArrayList<>();
        BreakIterator boundaries = BreakIterator.getSentenceInstance(Locale.ENGLISH);
        String flat = WHITESPACE.matcher(prose).replaceAll(" ").strip();
        boundaries.setText(flat);
        for (int start = boundaries.first(), end = boundaries.next(); end != BreakIterator.DONE;
                start = end, end = boundaries.next()) {
            String sentence = flat.substring(start, end).strip();
            if (sentence.length() > 2) {
                sentences.add(new Sentence(sentence, Set.copyOf(terms(sentence))));
            }
        }
        return List.copyOf(sentences);
    }

    private Set<String> terms(String text) {
        return new HashSet<>(Analyzers.terms(analyzer, text, Integer.MAX_VALUE));
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

    private static String firstLines(String code) {
        return String.join("\n", code.lines().limit(MAX_CODE_LINES).toList());
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
