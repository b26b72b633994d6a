package dev.docsassistant.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;

/**
 * Sections as sentence embeddings (all-MiniLM-L6-v2, quantized, run in-process), so a question finds the pages
 * that answer it in other words ("the chatbot" for the assistant, "minimum version" for "3.11 or later"). The
 * model is English-only, so only English pages are embedded; other languages rely on the lexical index.
 */
final class SemanticIndex {

    /** Enough of a section for the model, which reads at most 256 word pieces. */
    private static final int MAX_CHARS = 1_000;

    private static volatile EmbeddingModel model;

    /** A section's vector and where it is. */
    private record Entry(int page, int section, String version, float[] vector) {
    }

    /** A page's best section similarity to the question. */
    record PageMatch(int page, int section, double similarity) {
    }

    private final List<Entry> entries;

    private SemanticIndex(List<Entry> entries) {
        this.entries = entries;
    }

    static boolean covers(String language) {
        return language.toLowerCase().startsWith("en");
    }

    static SemanticIndex build(List<Page> pages) {
        List<TextSegment> texts = new ArrayList<>();
        List<int[]> places = new ArrayList<>();
        for (int p = 0; p < pages.size(); p++) {
            Page page = pages.get(p);
            if (!covers(page.language())) {
                continue;
            }
            for (int s = 0; s < page.sections().size(); s++) {
                texts.add(TextSegment.from(text(page, page.sections().get(s))));
                places.add(new int[] {p, s});
            }
        }
        List<Entry> entries = new ArrayList<>(texts.size());
        if (!texts.isEmpty()) {
            var vectors = model().embedAll(texts).content();
            for (int i = 0; i < vectors.size(); i++) {
                int[] place = places.get(i);
                entries.add(new Entry(place[0], place[1], pages.get(place[0]).version(),
                        normalized(vectors.get(i).vector())));
            }
        }
        return new SemanticIndex(entries);
    }

    /** A section as the model reads it: page title and heading trail, then the prose (the intro adds the summary). */
    private static String text(Page page, Section section) {
        StringBuilder text = new StringBuilder(page.title());
        for (String heading : section.headings()) {
            text.append(" › ").append(heading);
        }
        text.append(". ");
        if (section.anchor().isEmpty()) {
            text.append(page.description()).append(' ');
        }
        text.append(section.text());
        return text.length() > MAX_CHARS ? text.substring(0, MAX_CHARS) : text.toString();
    }

    /** Pages by their best section's cosine similarity to the question, best first, within one version. */
    List<PageMatch> search(String question, String version, int limit) {
        if (entries.isEmpty()) {
            return List.of();
        }
        float[] query = normalized(model().embed(question).content().vector());
        Map<Integer, PageMatch> best = new HashMap<>();
        for (Entry entry : entries) {
            if (version != null && !version.equals(entry.version())) {
                continue;
            }
            double similarity = dot(query, entry.vector());
            PageMatch current = best.get(entry.page());
            if (current == null || similarity > current.similarity()) {
                best.put(entry.page(), new PageMatch(entry.page(), entry.section(), similarity));
            }
        }
        return best.values().stream()
                .sorted((a, b) -> Double.compare(b.similarity(), a.similarity()))
                .limit(limit).toList();
    }

    private static float[] normalized(float[] vector) {
        double norm = Math.sqrt(dot(vector, vector));
        for (int i = 0; i < vector.length && norm > 0; i++) {
            vector[i] /= (float) norm;
        }
        return vector;
    }

    /** The vectors are normalized, so their dot product is the cosine similarity. */
    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    int size() {
        return entries.size();
    }

    /** One model per process: loading it takes a second and its ONNX session is safe to share between threads. */
    private static EmbeddingModel model() {
        if (model == null) {
            synchronized (SemanticIndex.class) {
                if (model == null) {
                    model = new AllMiniLmL6V2QuantizedEmbeddingModel();
                }
            }
        }
        return model;
    }
}
