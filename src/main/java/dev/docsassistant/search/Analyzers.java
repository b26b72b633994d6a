package dev.docsassistant.search;

import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.de.GermanAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.es.SpanishAnalyzer;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.it.ItalianAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.ja.JapaneseAnalyzer;
import org.apache.lucene.analysis.nl.DutchAnalyzer;
import org.apache.lucene.analysis.pt.PortugueseAnalyzer;
import org.apache.lucene.analysis.ru.RussianAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;

/**
 * The analyzer for a documentation language: stemming and stop words where Lucene has them, Kuromoji's
 * morphological analysis for Japanese, and overlapping bigrams for Chinese and Korean, whose words are not separated
 * by spaces (bigrams need no dictionary, which matters for product terms a dictionary does not know).
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

    /**
     * Japanese is also read as bigrams, in this field: Kuromoji's dictionary splits words precisely, bigrams still
     * match where it splits a product term or a paraphrase differently from the page.
     */
    public static final String BIGRAMS = "bigrams";

    static boolean readsBigramsToo(String language) {
        return base(language).equals("ja");
    }

    private static String base(String language) {
        return language.toLowerCase(Locale.ROOT).split("[-_]")[0];
    }

    /** A new analyzer for the language ({@code fr}, {@code pt-BR}, …); languages without one get Lucene's standard. */
    public static Analyzer forLanguage(String language) {
        Analyzer analyzer = BY_LANGUAGE.getOrDefault(base(language), StandardAnalyzer::new).get();
        return readsBigramsToo(language)
                ? new PerFieldAnalyzerWrapper(analyzer, Map.of(BIGRAMS, new CJKAnalyzer())) : analyzer;
    }
}
