package dev.docsassistant.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntPredicate;

import com.github.benmanes.caffeine.cache.AsyncCache;
import dev.docsassistant.ground.Caches;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sections as sentence embeddings (all-MiniLM-L6-v2, quantized, run in-process), one per passage of a few lines,
 * so a question finds the pages that answer it in other words ("the chatbot" for the assistant, "minimum version" for "3.11 or later"). The
 * model is English-only, so only English pages are embedded; other languages rely on the lexical index.
 */
final class SemanticIndex {

    /**
     * A passage's prose: a few lines of a section, short enough that one sentence still weighs in its vector. The
     * model reads a text's first 128 word pieces ({@link SentenceEncoder}), about 500 characters of prose: the end of
     * a passage behind a long header is not read (the figures in BENCHMARKS.md were measured so).
     */
    static final int PASSAGE_CHARS = 600;
    /** The model's name, part of a persisted index's key: vectors of another model are not comparable. */
    static final String MODEL = "all-MiniLM-L6-v2-q";
    private static final int HEADER_CHARS = 300;
    private static final Logger LOG = LoggerFactory.getLogger(SemanticIndex.class);
    /** Passages embedded between two progress lines: about a minute's work on a small machine. */
    private static final int PROGRESS_EVERY = 1000;

    private static volatile SentenceEncoder encoder;

    /**
     * Where texts are embedded, one per core, one text per model run on each. ONNX Runtime is native code, and a
     * virtual thread in native code pins its carrier: on JDK 21+ two concurrent embeddings would stop every other
     * request, open streams included, until they finish. Platform threads embed while the request's thread waits
     * unmounted.
     */
    private static final ExecutorService EMBEDDERS = Executors.newFixedThreadPool(
            Runtime.getRuntime().availableProcessors(), runnable -> {
                Thread thread = new Thread(runnable, "embedder");
                thread.setDaemon(true);
                return thread;
            });

    /**
     * Recently embedded questions' vectors, at most this many bytes: readers ask the same things, and a vector
     * never changes. An entry is ~1.9 KB whatever the question (its hash and 384 floats), so ~4,400 are kept.
     */
    private static final long QUESTIONS_BYTES = 8L << 20;

    /**
     * Question vectors by a hash of the exact text embedded ({@link Caches#key}), shared by every domain (there is
     * one model). A cache of futures: concurrent askers of the same question wait for one embedding, and none waits
     * inside the cache's lock.
     */
    private static final AsyncCache<String, float[]> QUESTIONS = Caches.<String, float[]>weighed(QUESTIONS_BYTES,
            (key, vector) -> Caches.bytes(key) + 2L * Caches.OBJECT + 4L * vector.length).buildAsync();

    /** A passage's vector, the section it belongs to, and the text it was computed from. */
    private record Entry(int page, int section, String version, String text, float[] vector) {
    }

    /**
     * A page's similarity to the question (see {@link PageScores}), its best passage's section and cosine
     * ({@code closest}), and each of its sections' closest passage's cosine.
     */
    record PageMatch(int page, int section, double similarity, double closest, Map<Integer, Double> sections) {
    }

    private final List<Entry> entries;
    private final int embedded;

    private SemanticIndex(List<Entry> entries, int embedded) {
        this.entries = entries;
        this.embedded = embedded;
    }

    static boolean covers(String language) {
        return language.toLowerCase().startsWith("en");
    }

    /**
     * Embeds the English sections of the pages, passage by passage. Passages whose text is {@code known} (embedded by
     * an earlier index of the domain, in memory or persisted) keep their vector, so re-indexing after an edit embeds
     * only what changed. The model is loaded here even when nothing is embedded (an index opened from its file): a
     * service ready to answer embeds its first question without loading it first.
     */
    static SemanticIndex build(List<Page> pages, Map<String, float[]> known) {
        SentenceEncoder encoder = encoder();
        List<Entry> entries = new ArrayList<>();
        List<Integer> missing = new ArrayList<>();
        for (int p = 0; p < pages.size(); p++) {
            Page page = pages.get(p);
            if (!covers(page.language())) {
                continue;
            }
            for (int s = 0; s < page.sections().size(); s++) {
                for (String text : passages(page, page.sections().get(s))) {
                    float[] vector = known.get(text);
                    if (vector == null) {
                        missing.add(entries.size());
                    }
                    entries.add(new Entry(p, s, page.version(), text, vector));
                }
            }
        }
        if (!missing.isEmpty()) {
            List<CompletableFuture<float[]>> vectors = missing.stream().map(i -> CompletableFuture.supplyAsync(
                    () -> encoder.encode(entries.get(i).text()), EMBEDDERS)).toList();
            for (int i = 0; i < missing.size(); i++) {
                Entry entry = entries.get(missing.get(i));
                entries.set(missing.get(i), new Entry(entry.page(), entry.section(), entry.version(), entry.text(),
                        await(vectors.get(i))));
                if ((i + 1) % PROGRESS_EVERY == 0) { // a large site embeds for minutes: say how far it got
                    LOG.info("Embedding passages for search by meaning: {} of {}", i + 1, missing.size());
                }
            }
        }
        return new SemanticIndex(entries, missing.size());
    }

    /**
     * A section as the model reads it: its prose cut at line ends into passages of about {@link #PASSAGE_CHARS},
     * each behind the same header (page title, heading trail and the page's description), so a sentence deep in a
     * long section is embedded with the context that says what it is about. The description is the author's
     * summary of what the page is for: a reader describing a problem in their own words is often closer to it than
     * to the section's instructions, which name the fix rather than the problem.
     */
    static List<String> passages(Page page, Section section) {
        StringBuilder header = new StringBuilder(page.title());
        for (String heading : section.headings()) {
            header.append(" › ").append(heading);
        }
        header.append(". ");
        if (!page.description().isBlank()) {
            header.append(page.description()).append(' ');
        }
        String head = header.length() > HEADER_CHARS ? header.substring(0, HEADER_CHARS) : header.toString();
        List<String> passages = new ArrayList<>();
        StringBuilder passage = new StringBuilder();
        for (String line : lines(section.words())) {
            if (passage.length() > 0 && passage.length() + line.length() > PASSAGE_CHARS) {
                passages.add(head + passage);
                passage.setLength(0);
            }
            passage.append(passage.length() > 0 ? "\n" : "").append(line);
        }
        if (passage.length() > 0 || passages.isEmpty()) {
            passages.add(head + passage);
        }
        return passages;
    }

    /** The text's lines, a line longer than a passage cut at spaces. */
    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            while (line.length() > PASSAGE_CHARS) {
                int cut = line.lastIndexOf(' ', PASSAGE_CHARS);
                cut = cut > 0 ? cut : PASSAGE_CHARS;
                lines.add(line.substring(0, cut));
                line = line.substring(cut).strip();
            }
            lines.add(line);
        }
        return lines;
    }

    /**
     * Pages by their passages' cosine similarities to the question ({@link PageScores}), best first, within one
     * version and among the pages (by ordinal) that {@code visible} accepts.
     */
    List<PageMatch> search(Future<float[]> question, String version, IntPredicate visible, int limit) {
        if (entries.isEmpty()) {
            return List.of();
        }
        List<Entry> scanned = entries.stream()
                .filter(entry -> (version == null || version.equals(entry.version())) && visible.test(entry.page()))
                .toList();
        double[] similarities = similarities(await(question), scanned.stream().map(Entry::vector).toList());
        PageScores pages = new PageScores();
        for (int e = 0; e < scanned.size(); e++) {
            pages.add(scanned.get(e).page(), scanned.get(e).section(), similarities[e]);
        }
        return pages.best(limit);
    }

    /**
     * The question's vector, normalized, on its way: embedded on the embedder threads (or found embedded already),
     * so the caller can search by words meanwhile. The vector is shared: never modify it.
     */
    static Future<float[]> embed(String question) {
        return QUESTIONS.get(Caches.key(question), (key, executor) -> CompletableFuture.supplyAsync(
                () -> encoder().encode(question), EMBEDDERS));
    }

    /** The question's vector, as {@link #embed} gives it, waited for. */
    static float[] vector(String question) {
        return await(embed(question));
    }

    private static float[] await(Future<float[]> vector) {
        try {
            return vector.get();
        } catch (InterruptedException e) { // the embedding goes on: other askers of the question may wait for it
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while embedding the question", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        }
    }

    /**
     * The question's {@link #dot} with each vector, four vectors at a time: each sum waits on its previous
     * addition, and four independent sums keep the processor busy meanwhile (twice as fast here). Each still adds in
     * dot's order, so the similarities are exactly dot's.
     */
    static double[] similarities(float[] query, List<float[]> vectors) {
        double[] similarities = new double[vectors.size()];
        int e = 0;
        for (; e + 3 < vectors.size(); e += 4) {
            float[] a = vectors.get(e);
            float[] b = vectors.get(e + 1);
            float[] c = vectors.get(e + 2);
            float[] d = vectors.get(e + 3);
            double sumA = 0;
            double sumB = 0;
            double sumC = 0;
            double sumD = 0;
            for (int i = 0; i < query.length; i++) {
                sumA += query[i] * a[i];
                sumB += query[i] * b[i];
                sumC += query[i] * c[i];
                sumD += query[i] * d[i];
            }
            similarities[e] = sumA;
            similarities[e + 1] = sumB;
            similarities[e + 2] = sumC;
            similarities[e + 3] = sumD;
        }
        for (; e < vectors.size(); e++) {
            similarities[e] = dot(query, vectors.get(e));
        }
        return similarities;
    }

    /** The vectors are normalized, so their dot product is the cosine similarity. */
    static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    int size() {
        return entries.size();
    }

    /** Each passage's text and vector: what a later build may reuse. */
    Map<String, float[]> vectors() {
        Map<String, float[]> vectors = new HashMap<>();
        entries.forEach(entry -> vectors.put(entry.text(), entry.vector()));
        return vectors;
    }

    /** How many passages this build had to embed (the others kept the previous index's vectors). */
    int embedded() {
        return embedded;
    }

    /** One model per process: loading it takes a second, and its ONNX session is safe to share between threads. */
    static SentenceEncoder encoder() {
        if (encoder == null) {
            synchronized (SemanticIndex.class) {
                if (encoder == null) {
                    encoder = new SentenceEncoder();
                }
            }
        }
        return encoder;
    }
}
