package dev.docsassistant.search;

import java.util.Locale;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.de.GermanAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.es.SpanishAnalyzer;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.it.ItalianAnalyzer;
import org.apache.lucene.analysis.ja.JapaneseAnalyzer;
import org.apache.lucene.analysis.nl.DutchAnalyzer;
import org.apache.lucene.analysis.pt.PortugueseAnalyzer;
import org.apache.lucene.analysis.ru.RussianAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;

/**
 * The analyzer for a documentation language: stemming and stop words where Lucene has them, and overlapping
 * bigrams for Chinese, Japanese and Korean, whose words are not separated by spaces (a bigram index finds a
 * paraphrased question without a dictionary, which matters for product terms a dictionary does not know).
 */
public final class Analyzers {

    private Analyzers() {
    }

    public static Analyzer forLanguage(String language) {
        String base = language.toLowerCase(Locale.ROOT).split("[-_]")[0];
        switch (base) {
            case "en":
                return new EnglishAnalyzer();
            case "fr":
                return new FrenchAnalyzer();
            case "es":
                return new SpanishAnalyzer();
            case "de":
                return new GermanAnalyzer();
            case "it":
                return new ItalianAnalyzer();
            case "pt":
                return new PortugueseAnalyzer();
            case "nl":
                return new DutchAnalyzer();
            case "ru":
                return new RussianAnalyzer();
            case "ja":
                return new JapaneseAnalyzer();
            case "zh":
            case "ko":
                return new CJKAnalyzer();
            default:
                return new StandardAnalyzer();
        }
    }
}
