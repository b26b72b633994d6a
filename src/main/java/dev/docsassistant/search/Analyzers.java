package dev.docsassistant.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.custom.CustomAnalyzer;
import org.apache.lucene.analysis.de.GermanAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.es.SpanishAnalyzer;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.it.ItalianAnalyzer;
import org.apache.lucene.analysis.miscellaneous.LimitTokenCountFilter;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.ja.JapaneseAnalyzer;
import org.apache.lucene.analysis.nl.DutchAnalyzer;
import org.apache.lucene.analysis.pt.PortugueseAnalyzer;
import org.apache.lucene.analysis.ru.RussianAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The analyzer for a documentation language: stemming and stop words where Lucene has them, Kuromoji's
 * morphological analysis for Japanese, and overlapping bigrams for Chinese and Korean, whose words are not separated
 * by spaces (bigrams need no dictionary, which matters for product terms a dictionary does not know). Some languages
 * are read a second time, into {@link #SECOND_READING}.
 */
public final class Analyzers {

    private static final Map<String, Supplier<Analyzer>> BY_LANGUAGE = Map.ofEntries(
            Map.entry("en", EnglishAnalyzer::new), Map.entry("fr", FrenchAnalyzer::new),
            Map.entry("es", SpanishAnalyzer::new), Map.entry("de", GermanAnalyzer::new),
            Map.entry("it", ItalianAnalyzer::new), Map.entry("pt", PortugueseAnalyzer::new),
            Map.entry("nl", DutchAnalyzer::new), Map.entry("ru", RussianAnalyzer::new),
            Map.entry("ja", JapaneseAnalyzer::new), Map.entry("zh", CJKAnalyzer::new),
            Map.entry("ko", CJKAnalyzer::new));

    private Analyzers() {
    }

    /** The field holding a language's second reading of a section, where it has one. */
    public static final String SECOND_READING = "grams";

    /**
     * Second readings of the same text: for Japanese, bigrams beside Kuromoji's dictionary words, which still match
     * where the dictionary splits a product term or a paraphrase differently from the page; for inflected European
     * languages, character 4-grams beside the stems, which join what light stemming keeps apart (a verb and its
     * noun: "rediriger" and "redirections") and survive typos.
     */
    private static final Map<String, Supplier<Analyzer>> SECOND_READINGS = Map.of(
            "ja", CJKAnalyzer::new, "fr", Analyzers::fourGrams, "es", Analyzers::fourGrams,
            "de", Analyzers::fourGrams, "it", Analyzers::fourGrams, "pt", Analyzers::fourGrams);

    static boolean readsTwice(String language) {
        return SECOND_READINGS.containsKey(base(language));
    }

    private static Analyzer fourGrams() {
        try {
            return CustomAnalyzer.builder().withTokenizer("standard").addTokenFilter("lowercase")
                    .addTokenFilter("asciiFolding").addTokenFilter("nGram", "minGramSize", "4", "maxGramSize", "4")
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException("Lucene's built-in n-gram analysis is missing", e);
        }
    }

    private static String base(String language) {
        return language.toLowerCase(Locale.ROOT).split("[-_]")[0];
    }

    /** A new analyzer for the language ({@code fr}, {@code pt-BR}, …); languages without one get Lucene's standard. */
    public static Analyzer forLanguage(String language) {
        Analyzer analyzer = BY_LANGUAGE.getOrDefault(base(language), StandardAnalyzer::new).get();
        Supplier<Analyzer> second = SECOND_READINGS.get(base(language));
        return second == null ? analyzer : new PerFieldAnalyzerWrapper(analyzer, Map.of(SECOND_READING, second.get()));
    }

    /**
     * Words of the asking, not of the subject ("how do I", "can I use", "which … should we"): the same in every
     * question, so they say nothing about which section answers, yet each matched the headings and prose that
     * happen to repeat them ("Can I use Ollama?" found the section using "use" most, "Ollama" alone the right one).
     */
    private static final String QUESTION_WORDS = "how do does did can could i we you my our your me us use using "
            + "what which who where when why would should want need get way please tell know";

    /** {@link #QUESTION_WORDS} as the language's analyzer makes them; none for other languages than English. */
    public static Set<String> questionWords(String language, Analyzer analyzer) {
        return isEnglish(language) ? Set.copyOf(terms(analyzer, QUESTION_WORDS, Integer.MAX_VALUE)) : Set.of();
    }

    /** Whether the language is English, whatever its region ({@code en}, {@code en-GB}). */
    static boolean isEnglish(String language) {
        return base(language).equals("en");
    }

    /** The text's first {@code limit} terms as the analyzer makes them of prose (a section's body). */
    public static List<String> terms(Analyzer analyzer, String text, int limit) {
        List<String> terms = new ArrayList<>();
        try (TokenStream tokens = new LimitTokenCountFilter(analyzer.tokenStream("body", text), limit)) {
            CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            while (tokens.incrementToken()) {
                terms.add(term.toString());
            }
            tokens.end();
        } catch (IOException e) {
            throw new UncheckedIOException("Analyzing in memory cannot fail", e);
        }
        return terms;
    }
}
