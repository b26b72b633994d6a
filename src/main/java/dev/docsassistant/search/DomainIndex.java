package dev.docsassistant.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.SingleInstanceLockFactory;
import org.apache.lucene.util.Bits;

/**
 * One domain's documentation in memory: a Lucene index per language (each with that language's analyzer), with a
 * document per section holding the page title, its summary, the heading trail, the prose and the code as
 * separately boosted fields. Immutable once built (each language is searched through a reader of one commit), so
 * searches need no locking, and an index built from it for changed docs ({@link #build}) simply replaces it.
 */
public final class DomainIndex {

    /** Field boosts: a word in a title says more about a page than the same word in its code. */
    private static final Map<String, Float> FIELDS =
            Map.of("title", 4f, "summary", 2f, "headings", 2.5f, "body", 1f, "code", 0.5f);
    /** A language's second reading of a section weighs as much as the prose it re-reads. */
    private static final float SECOND_READING_BOOST = 1f;
    /** Attached code or text adds to the question without outweighing it. */
    private static final float CONTEXT_WEIGHT = 0.4f;
    /** Earlier questions complete a short follow-up ("and for v3?"), at a lower weight than its own words. */
    private static final float EARLIER_WEIGHT = 0.5f;
    private static final int SHORT_QUESTION_TERMS = 3;
    /** Pages in the same navigation group as the reader's page rank a little higher. */
    private static final double NEIGHBOUR_BOOST = 1.15;
    /** Sections shown per page: the best ones, so the model sees each page once with its most relevant parts. */
    private static final int SECTIONS_SHOWN = 2;
    private static final int MIN_CANDIDATES = 50;
    private static final int SECTIONS_PER_PAGE = 4;
    /**
     * Reciprocal rank fusion: a page scores 1/(k + rank) in each ranking. A small k lets a page that one ranking puts
     * near the top win over pages both rankings put in the middle (tuned on eval-dev: stable for k 10-20).
     */
    private static final double FUSION_K = 10;
    /** Meaning counts a little more than words: readers ask in their words, not the docs'. */
    private static final double DENSE_WEIGHT = 1.5;
    /**
     * The similarity a page found by meaning alone must reach when no word of the question matched any page:
     * unrelated questions ("zzqx wibble", "qwerty asdf", "the capital of France") come within 0.24 of the demo
     * guide's pages, a question about a page in other words 0.3 and above, so a question the docs do not cover finds
     * nothing and is seen as a gap.
     */
    private static final double MEANING_ALONE = 0.25;
    /** Within a page a few sections compete: a small k lets either ranking's first choice lead. */
    private static final double SECTION_FUSION_K = 2;
    /**
     * A heading holding all the question's words (by their rarity, {@link #asked}) counts a little more than being
     * first by words and by meaning (1.25): a heading naming the question's rare word takes most of that. Tuned on
     * bench/eval's sets (BENCHMARKS.md): 1 and 1.25 left sections whose headings name the question behind, 1.75 and
     * 2 lost a corpus answer.
     */
    private static final double HEADING_WEIGHT = 1.5;
    /**
     * A section's own heading (the last of its trail) counts once more, a third as much: its parent headings are its
     * siblings' too, so only its own tells it from them ("Custom ports" under "Preview", not "Preview" itself).
     * Tuned on bench/eval's tuned halves (BENCHMARKS.md): the guide's section first 0.83 → 0.87, measured halves held.
     */
    private static final double OWN_HEADING_WEIGHT = 0.5;
    /**
     * A question telling a symptom ({@link #SYMPTOM}) asks for troubleshooting: a title or heading naming it counts
     * as naming this share of the question ({@link #sought}). Tuned on the tuned halves (0.2 moved nothing, 0.7 lost
     * the untuned set's MRR).
     */
    private static final double TROUBLESHOOTING_SHARE = 0.4;
    /** The words of an English question that tell something fails: what a troubleshooting section is written for. */
    private static final Pattern SYMPTOM = Pattern.compile("(?i)\\b(not|never|no longer|doesn't|don't|won't|can't|"
            + "cannot|isn't|aren't|fails?|failed|failing|errors?|broken|stopped|wrong|missing|empty)\\b");

    /** The parts of a link that are not its route, compiled once: {@link #route} runs on every search. */
    private static final Pattern QUERY_OR_FRAGMENT = Pattern.compile("[?#].*$");
    private static final Pattern ORIGIN = Pattern.compile("^[a-z]+://[^/]+");
    private static final Pattern EXTENSION = Pattern.compile("\\.mdx?$");
    private static final Pattern TRAILING_SLASHES = Pattern.compile("/+$");

    private static final AtomicLong GENERATIONS = new AtomicLong();

    private final long generation = GENERATIONS.incrementAndGet();
    private final Navigation navigation;
    private final String instructions;
    private final String siteUrl;
    private final List<Page> pages;
    private final Map<String, Page> byPath;
    /** The pages llms.txt lists ({@link Docs#listed}), by route. */
    private final Map<String, Page> listed;
    private final LanguageIndexes languages;
    private final int written;
    private final boolean opened;
    private final Map<String, Searcher> byLanguage;
    private final int sectionCount;
    private final SemanticIndex semantic;
    /** Each page's sections' heading trails as their language analyzes them, once: every search ranks by them. */
    private final List<List<Set<String>>> headingTerms;
    /** Each page's sections' own heading (the last of the trail), likewise. */
    private final List<List<Set<String>>> ownHeadingTerms;
    /** Each page's title's terms, likewise. */
    private final List<Set<String>> titleTerms;

    /**
     * One language's index. {@code pageOf} and {@code sectionOf} map each Lucene document to its page and section,
     * read once here from doc values, so a search reads nothing per hit; {@code readsTwice} whether its sections
     * have a second reading.
     */
    private record Searcher(TermLookups queries, IndexSearcher searcher, boolean readsTwice, int[] pageOf,
            int[] sectionOf) {

        /** @param ordinals each page's ordinal by path and variant ({@link LanguageIndexes#ordinals}) */
        static Searcher open(String language, DirectoryReader reader, Map<String, int[]> ordinals)
                throws IOException {
            int[] pageOf = new int[reader.maxDoc()];
            int[] sectionOf = new int[pageOf.length];
            for (LeafReaderContext leaf : reader.leaves()) {
                SortedDocValues paths = DocValues.getSorted(leaf.reader(), LanguageIndexes.PAGE);
                NumericDocValues variants = DocValues.getNumeric(leaf.reader(), LanguageIndexes.VARIANT);
                NumericDocValues sections = DocValues.getNumeric(leaf.reader(), LanguageIndexes.SECTION);
                Bits live = leaf.reader().getLiveDocs();
                int[][] byOrd = new int[paths.getValueCount()][];
                for (int doc = paths.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = paths.nextDoc()) {
                    if (live != null && !live.get(doc)) {
                        continue; // a deleted document is never a hit
                    }
                    int ord = paths.ordValue();
                    if (byOrd[ord] == null) {
                        String path = paths.lookupOrd(ord).utf8ToString();
                        byOrd[ord] = ordinals.get(path);
                        if (byOrd[ord] == null) { // fail the build: the index in use keeps serving
                            throw new IllegalStateException("the " + language + " index holds " + path
                                    + ", which the docs do not");
                        }
                    }
                    variants.advanceExact(doc);
                    sections.advanceExact(doc);
                    pageOf[leaf.docBase + doc] = byOrd[ord][(int) variants.longValue()];
                    sectionOf[leaf.docBase + doc] = (int) sections.longValue();
                }
            }
            Analyzer analyzer = Analyzers.forLanguage(language);
            IndexSearcher searcher = new IndexSearcher(reader);
            return new Searcher(new TermLookups(analyzer, searcher, Analyzers.questionWords(language, analyzer),
                    FIELDS.keySet()),
                    searcher, Analyzers.readsTwice(language), pageOf, sectionOf);
        }
    }

    private DomainIndex(Docs docs, String siteUrl, LanguageIndexes languages, LanguageIndexes.Applied lucene,
            SemanticIndex semantic, boolean opened) throws IOException {
        this.semantic = semantic;
        this.opened = opened;
        this.navigation = docs.navigation();
        this.instructions = docs.instructions();
        this.siteUrl = siteUrl;
        this.pages = docs.pages();
        this.byPath = new HashMap<>();
        docs.pages().forEach(page -> byPath.put(page.path(), page));
        this.listed = new LinkedHashMap<>();
        docs.listed().forEach(page -> listed.put(page.path(), page));
        this.languages = languages;
        this.written = lucene.written();
        this.byLanguage = new HashMap<>();
        Map<String, Map<String, int[]>> ordinals = LanguageIndexes.ordinals(docs.pages());
        for (Map.Entry<String, DirectoryReader> language : lucene.readers().entrySet()) {
            byLanguage.put(language.getKey(), Searcher.open(language.getKey(), language.getValue(),
                    ordinals.get(language.getKey())));
        }
        this.sectionCount = docs.pages().stream().mapToInt(page -> page.sections().size()).sum();
        this.headingTerms = docs.pages().stream().map(page -> page.sections().stream()
                .map(section -> subject(page, String.join("\n", section.headings()))).toList()).toList();
        this.ownHeadingTerms = docs.pages().stream().map(page -> page.sections().stream()
                .map(section -> subject(page, section.headings().isEmpty() ? ""
                        : section.headings().get(section.headings().size() - 1))).toList()).toList();
        this.titleTerms = docs.pages().stream().map(page -> Optional.ofNullable(byLanguage.get(page.language()))
                .map(searcher -> Set.copyOf(searcher.queries().subject(page.title()))).orElse(Set.<String>of()))
                .toList();
    }

    /** The text's terms, but the question words, as the page's language analyzes them; none if it has no index. */
    private Set<String> subject(Page page, String text) {
        return Optional.ofNullable(byLanguage.get(page.language()))
                .map(searcher -> Set.copyOf(searcher.queries().subject(text))).orElse(Set.of());
    }

    /**
     * @param semantic whether English pages are also embedded for semantic search
     * @param known    vectors of passages embedded before, by their text (see {@link #vectors}): reused, not embedded
     */
    public static DomainIndex build(Docs docs, String siteUrl, boolean semantic, Map<String, float[]> known)
            throws IOException {
        return build(docs, siteUrl, semantic, known, null);
    }

    /**
     * @param previous the index these docs replace, or null: its Lucene indexes are brought to these docs by
     *                 writing only the pages that changed ({@link LanguageIndexes}); it keeps serving as it was
     */
    public static DomainIndex build(Docs docs, String siteUrl, boolean semantic, Map<String, float[]> known,
            DomainIndex previous) throws IOException {
        LanguageIndexes languages = previous == null ? new LanguageIndexes() : previous.languages;
        LanguageIndexes.Applied lucene = languages.apply(docs.pages());
        return new DomainIndex(docs, siteUrl, languages, lucene,
                semantic ? SemanticIndex.build(docs.pages(), known) : null, false);
    }

    /**
     * The index {@link #build} made of these docs, from its Lucene files and vectors as persisted ({@link IndexFiles}):
     * nothing is analyzed or embedded again.
     *
     * @param vectors every passage's vector by its text; null for an index searched by words only
     */
    static DomainIndex open(Docs docs, String siteUrl, Map<String, ByteBuffersDirectory> directories,
            Map<String, float[]> vectors) throws IOException {
        LanguageIndexes languages = LanguageIndexes.opened(directories, docs.pages());
        return new DomainIndex(docs, siteUrl, languages, languages.apply(docs.pages()),
                vectors == null ? null : SemanticIndex.build(docs.pages(), vectors), true);
    }

    /**
     * An in-memory directory whose files are read through Lucene's own buffer inputs (those of its memory-mapped
     * directory): a search opens a postings list for each of its terms in each field, and these clone and read
     * faster than the default's.
     */
    static ByteBuffersDirectory inMemory() {
        return new ByteBuffersDirectory(new SingleInstanceLockFactory(), ByteBuffersDataOutput::new,
                ByteBuffersDirectory.OUTPUT_AS_MANY_BUFFERS_LUCENE);
    }

    /**
     * The best pages for the query, each with its best sections, best first. Lexical (BM25) and, for English,
     * semantic rankings of pages are fused by reciprocal rank, which needs no calibration between their scores.
     */
    public List<SearchHit> search(SearchQuery query) {
        if (!SearchQuery.EVERY.equals(query.language()) || navigation.languages().isEmpty()) {
            return search(query, language(query), query.scoreThreshold() > 0);
        }
        // every language, each in its own index: merged by relevance, the one score they share, times each boost
        List<SearchHit> hits = new ArrayList<>();
        for (String language : byLanguage.keySet()) {
            hits.addAll(search(query, language, true));
        }
        hits.sort(Comparator.comparingDouble((SearchHit hit) -> hit.relevance() * boost(query, hit.page()))
                .reversed());
        return hits.size() > query.pageSize() ? List.copyOf(hits.subList(0, query.pageSize())) : hits;
    }

    /** The search in one language's index; {@code rate}: each hit's {@link SearchHit#relevance} is measured. */
    private List<SearchHit> search(SearchQuery query, String language, boolean rate) {
        Searcher index = byLanguage.get(language);
        if (index == null) {
            return List.of();
        }
        boolean byMeaning = semantic != null && SemanticIndex.covers(language) && !query.question().isBlank();
        Future<float[]> meaning = byMeaning ? SemanticIndex.embed(query.question()) : null;
        Map<Integer, Candidate> candidates = new LinkedHashMap<>();
        int depth = Math.max(MIN_CANDIDATES, query.pageSize() * 10);
        List<Candidate> lexical = lexical(index, query, depth); // while the question is embedded
        for (int rank = 0; rank < lexical.size(); rank++) {
            Candidate page = lexical.get(rank);
            page.fused += 1.0 / (FUSION_K + rank);
            candidates.put(page.page, page);
        }
        if (byMeaning) {
            List<SemanticIndex.PageMatch> dense = semantic.search(meaning, version(query),
                    page -> pages.get(page).visibleTo(query.groups()), depth);
            if (lexical.isEmpty()) { // no word matched: only pages close in meaning, not the nearest unrelated ones
                dense = dense.stream().filter(match -> match.closest() >= MEANING_ALONE).toList();
            }
            dense = dense.stream().sorted(Comparator.comparingDouble((SemanticIndex.PageMatch match) ->
                    match.similarity() * boost(query, pages.get(match.page()))).reversed()).toList();
            for (int rank = 0; rank < dense.size(); rank++) {
                SemanticIndex.PageMatch match = dense.get(rank);
                Candidate page = candidates.computeIfAbsent(match.page(), Candidate::new);
                page.fused += DENSE_WEIGHT / (FUSION_K + rank);
                page.meaning = match;
            }
        }
        Map<String, Double> asked = asked(index, query.question());
        Map<String, Double> sought = sought(index, language, query.question(), asked);
        for (Candidate page : candidates.values()) {
            page.fused += named(page.page, sought) / FUSION_K;
        }
        List<String> neighbourhood = neighbourhood(query.currentPath());
        List<Candidate> ranked = new ArrayList<>(candidates.values());
        for (Candidate page : ranked) {
            if (!neighbourhood.isEmpty() && neighbourhood.equals(pages.get(page.page).breadcrumb())) {
                page.fused *= NEIGHBOUR_BOOST;
            }
        }
        if (query.tag() != null) {
            ranked.removeIf(page -> !pages.get(page.page).tag().equalsIgnoreCase(query.tag()));
        }
        ranked.sort(Comparator.comparingDouble((Candidate page) -> page.fused).reversed());
        List<SearchHit> hits = new ArrayList<>();
        for (Candidate candidate : ranked) {
            if (hits.size() == query.pageSize()) {
                break;
            }
            Page page = pages.get(candidate.page);
            List<Section> shown = candidate.shown(page, headingTerms.get(candidate.page),
                    ownHeadingTerms.get(candidate.page), sought);
            double similarity = candidate.meaning == null ? Double.NaN : candidate.meaning.closest();
            double relevance = rate ? relevance(index, page, shown, asked, similarity) : Double.NaN;
            if (relevance < query.scoreThreshold()) {
                continue;
            }
            hits.add(new SearchHit(page, shown, siteUrl + page.path(), candidate.fused / ranked.get(0).fused,
                    similarity, relevance));
        }
        return hits;
    }

    /**
     * {@link SearchHit#relevance}: the larger of the similarity (when compared by meaning) and the share of the
     * question's words, weighed by their rarity ({@link #asked}), that the page's title and shown sections hold.
     */
    private static double relevance(Searcher index, Page page, List<Section> shown, Map<String, Double> asked,
            double similarity) {
        StringBuilder text = new StringBuilder(page.title());
        for (Section section : shown) {
            text.append('\n').append(String.join(" ", section.headings())).append('\n').append(section.text())
                    .append('\n').append(section.code());
        }
        Set<String> held = new HashSet<>(index.queries().terms(text.toString()));
        double words = asked.entrySet().stream().filter(term -> held.contains(term.getKey()))
                .mapToDouble(Map.Entry::getValue).sum();
        return Double.isNaN(similarity) ? words : Math.max(words, similarity);
    }

    /**
     * A page found: its best sections by words (BM25 order, up to {@link #SECTIONS_PER_PAGE}), how many of its
     * sections matched, its match by meaning (null when none), and its fused score.
     */
    private static final class Candidate {
        final int page;
        final List<Integer> byWords = new ArrayList<>(SECTIONS_PER_PAGE);
        int matched;
        double lexical;
        double fused;
        SemanticIndex.PageMatch meaning;

        Candidate(int page) {
            this.page = page;
        }

        /**
         * The sections shown, best first: ranked within the page by words and by meaning, fused by reciprocal rank
         * as pages are ({@link #SECTION_FUSION_K}), so the section a reader would pick for the question wins over
         * one that merely repeats its words ("Can I use Ollama?" → the section on answering with Ollama, not the
         * one that uses "use" most). A reader scans the headings for what the question names: a section whose
         * heading trail holds some of the question's words gains {@link #HEADING_WEIGHT} times their share of the
         * question's rarity ({@link #asked}), so a heading naming its distinctive word ("Answer with a local Ollama")
         * beats one naming its everyday words ("The extractive model" for "…a local Ollama model instead of the
         * extractive one?"), and filler words in some heading do not move a question off its section.
         *
         * @param headings the terms of each of the page's sections' heading trail
         * @param own      the terms of each of its sections' own heading, which gain {@link #OWN_HEADING_WEIGHT} more
         * @param sought   the question's terms, each with its share of their rarity ({@link #sought})
         */
        List<Section> shown(Page of, List<Set<String>> headings, List<Set<String>> own, Map<String, Double> sought) {
            Map<Integer, Double> fused = new HashMap<>();
            for (int rank = 0; rank < byWords.size(); rank++) {
                fused.merge(byWords.get(rank), 1.0 / (SECTION_FUSION_K + rank), Double::sum);
            }
            if (meaning != null) {
                List<Integer> byMeaning = meaning.sections().entrySet().stream()
                        .sorted(Map.Entry.<Integer, Double>comparingByValue().reversed()).map(Map.Entry::getKey)
                        .limit(SECTIONS_PER_PAGE).toList();
                for (int rank = 0; rank < byMeaning.size(); rank++) {
                    fused.merge(byMeaning.get(rank), DENSE_WEIGHT / (SECTION_FUSION_K + rank), Double::sum);
                }
            }
            fused.replaceAll((section, score) -> score + HEADING_WEIGHT * share(headings.get(section), sought)
                    + OWN_HEADING_WEIGHT * share(own.get(section), sought));
            return fused.entrySet().stream()
                    .sorted(Map.Entry.<Integer, Double>comparingByValue().reversed()
                            .thenComparing(Map.Entry.comparingByKey()))
                    .limit(SECTIONS_SHOWN).map(section -> of.sections().get(section.getKey())).toList();
        }
    }

    /**
     * How much of the question (its terms' share of their rarity, {@link #asked}) the page's title or one of its
     * heading trails names, whichever names more: a reader picks a page from the table of contents by the heading
     * that names what they ask, and a page naming all of it gains as much as being first in one more ranking.
     * ({@code RUNNER=RetrievalEval bench/eval/answers.sh}: page first on mintlify's tuned half 0.65 → 0.70, the
     * guide's MRR 0.935 → 0.957, measured halves held.)
     */
    private double named(int page, Map<String, Double> asked) {
        double named = share(titleTerms.get(page), asked);
        for (Set<String> trail : headingTerms.get(page)) {
            named = Math.max(named, share(trail, asked));
        }
        return named;
    }

    private static double share(Set<String> terms, Map<String, Double> asked) {
        return terms.stream().filter(asked::containsKey).mapToDouble(asked::get).sum();
    }

    /**
     * The question's terms but its asking words, each with its share of their summed rarity across the sections
     * ({@link TermLookups#rarity}): what a heading holding it says about the question. Rarity, not a count, as for
     * a reader: "Ollama" names what is asked, "model" or "one" hardly does.
     */
    private static Map<String, Double> asked(Searcher index, String question) {
        Map<String, Double> asked = new HashMap<>();
        for (String term : index.queries().subject(question)) {
            asked.put(term, index.queries().rarity(term));
        }
        double all = asked.values().stream().mapToDouble(Double::doubleValue).sum();
        asked.replaceAll((term, rarity) -> rarity / all);
        return asked;
    }

    /**
     * What titles and headings are searched for: the question's terms ({@link #asked}) and, when an English question
     * tells a symptom ({@link #SYMPTOM}: "never shows up", "fails", "stopped"), troubleshooting at
     * {@link #TROUBLESHOOTING_SHARE}: a reader with a problem looks under "Troubleshooting" first. Not in what a
     * hit's {@link SearchHit#relevance} counts: a page about troubleshooting something else is no more relevant.
     */
    private static Map<String, Double> sought(Searcher index, String language, String question,
            Map<String, Double> asked) {
        if (!Analyzers.isEnglish(language) || !SYMPTOM.matcher(question).find()) {
            return asked;
        }
        Map<String, Double> sought = new HashMap<>(asked);
        index.queries().subject("troubleshooting")
                .forEach(term -> sought.merge(term, TROUBLESHOOTING_SHARE, Math::max));
        return sought;
    }

    /** The page's Mintlify {@code boost} where the query takes boosts (the in-product search), else 1. */
    private static double boost(SearchQuery query, Page page) {
        return query.boosted() ? page.boostFactor() : 1;
    }

    /**
     * Pages ranked by BM25, a page by its best section: a reader wants the section that answers, and further sections
     * mentioning the question's words in passing (a changelog's months, a long guide's asides) made such pages
     * outrank it ({@code RUNNER=RetrievalEval bench/eval/answers.sh}: page first on mintlify's tuned half 0.55 → 0.65,
     * measured held).
     */
    private List<Candidate> lexical(Searcher index, SearchQuery query, int depth) {
        Query lucene = query(index, query);
        if (lucene == null) {
            return List.of();
        }
        long[] top;
        try {
            top = index.searcher().search(lucene, new TopSections(depth * SECTIONS_PER_PAGE));
        } catch (IOException e) {
            throw new UncheckedIOException("In-memory index failed to read", e);
        }
        Candidate[] byPage = new Candidate[pages.size()];
        List<Candidate> ranked = new ArrayList<>();
        for (long section : top) {
            int doc = TopSections.doc(section);
            int ordinal = index.pageOf()[doc];
            Candidate page = byPage[ordinal];
            if (page == null) {
                page = byPage[ordinal] = new Candidate(ordinal);
                ranked.add(page);
            }
            int n = page.matched++;
            if (n == 0) {
                page.lexical = TopSections.score(section);
            }
            if (n < SECTIONS_PER_PAGE) {
                page.byWords.add(index.sectionOf()[doc]);
            }
        }
        // Mintlify's boost multiplies a page's relevance, so it moves the page within the ranking by words, not past
        // the reciprocal-rank fusion (where a factor of 2 would lift the 10th page over the 1st)
        ranked.sort(Comparator.comparingDouble((Candidate page) -> page.lexical * boost(query, pages.get(page.page)))
                .reversed());
        return ranked.size() > depth ? ranked.subList(0, depth) : ranked;
    }

    /**
     * The language searched: the filter's, else that of the page the reader is on, else the site's default. A
     * site that declares no languages has one, whatever the filter says.
     */
    String language(SearchQuery query) {
        if (navigation.languages().isEmpty()) {
            return navigation.defaultLanguage();
        }
        if (query.language() != null) {
            return query.language().toLowerCase(Locale.ROOT);
        }
        return query.currentPath() != null ? navigation.languageOf(route(query.currentPath()))
                : navigation.defaultLanguage();
    }

    /** The version searched, chosen like the language; none on a site without versions. */
    String version(SearchQuery query) {
        if (navigation.versions().isEmpty() || SearchQuery.EVERY.equals(query.version())) {
            return null;
        }
        if (query.version() != null) {
            return query.version();
        }
        return query.currentPath() != null ? navigation.versionOf(route(query.currentPath()))
                : navigation.defaultVersion();
    }

    /** The question's words, with the attached context's and (for a short follow-up) earlier questions'; or null. */
    private Query query(Searcher index, SearchQuery search) {
        BooleanQuery.Builder text = new BooleanQuery.Builder();
        boolean any = add(text, fields(index, search.question()), 1f);
        any |= add(text, fields(index, search.context()), CONTEXT_WEIGHT);
        if (index.queries().terms(search.question()).size() <= SHORT_QUESTION_TERMS) {
            any |= add(text, fields(index, search.earlier()), EARLIER_WEIGHT);
        }
        if (!any) {
            return null;
        }
        // MUST: beside a FILTER, SHOULD clauses would turn optional and every page of the version would match
        BooleanQuery.Builder query = new BooleanQuery.Builder().add(text.build(), BooleanClause.Occur.MUST);
        String version = version(search);
        if (version != null) {
            query.add(new TermQuery(new Term("version", version)), BooleanClause.Occur.FILTER);
        }
        return query.add(visible(search.groups()), BooleanClause.Occur.FILTER).build();
    }

    private static boolean add(BooleanQuery.Builder text, Query words, float weight) {
        if (words != null) {
            text.add(weight == 1f ? words : new BoostQuery(words, weight), BooleanClause.Occur.SHOULD);
        }
        return words != null;
    }

    /** Sections of public pages and of pages restricted to one of the groups: {@link Page#visibleTo} in Lucene. */
    private static Query visible(List<String> groups) {
        BooleanQuery.Builder visible = new BooleanQuery.Builder()
                .add(new TermQuery(new Term("access", "public")), BooleanClause.Occur.SHOULD);
        groups.forEach(group -> visible.add(new TermQuery(new Term("group", group)), BooleanClause.Occur.SHOULD));
        return visible.build();
    }

    /** The text's terms searched across the fields ({@link TermLookups#acrossFields}), and in a second reading. */
    private static Query fields(Searcher index, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        Query words = index.queries().acrossFields(text, FIELDS);
        if (words != null) {
            query.add(words, BooleanClause.Occur.SHOULD);
        }
        Query grams = index.readsTwice()
                ? index.queries().createBooleanQuery(Analyzers.SECOND_READING, text, BooleanClause.Occur.SHOULD)
                : null;
        if (grams != null) {
            query.add(new BoostQuery(grams, SECOND_READING_BOOST), BooleanClause.Occur.SHOULD);
        }
        return words == null && grams == null ? null : query.build();
    }

    /** The navigation group of the reader's page, whose pages get a gentle boost. */
    private List<String> neighbourhood(String currentPath) {
        if (currentPath == null) {
            return List.of();
        }
        Page current = byPath.get(route(currentPath));
        return current == null ? List.of() : current.breadcrumb();
    }

    /**
     * A page by its route, however the caller wrote it ({@code create/redirects.mdx}, {@code /create/redirects/}),
     * if the reader's groups may see it: a restricted page is as absent as a missing one to anyone else.
     */
    public Optional<Page> page(String path, List<String> groups) {
        return Optional.ofNullable(byPath.get(route(path))).filter(page -> page.visibleTo(groups));
    }

    /**
     * The pages llms.txt lists (searchable or not, {@link Docs#listed}) that the reader's groups may see, in path
     * order.
     */
    public List<Page> listed(List<String> groups) {
        return listed.values().stream().filter(page -> page.visibleTo(groups)).toList();
    }

    /** A listed page by its route, however the caller wrote it, if the reader's groups may see it. */
    public Optional<Page> listedPage(String path, List<String> groups) {
        return Optional.ofNullable(listed.get(route(path))).filter(page -> page.visibleTo(groups));
    }

    /** {@code https://site/docs/x/index.mdx#a?b} → {@code /docs/x}: the route part of a path or link. */
    static String route(String path) {
        String route = ORIGIN.matcher(QUERY_OR_FRAGMENT.matcher(path.strip()).replaceAll("")).replaceAll("");
        route = TRAILING_SLASHES.matcher(EXTENSION.matcher(route).replaceAll("")).replaceAll("");
        if (route.endsWith("/index") || route.equals("index")) {
            route = TRAILING_SLASHES.matcher(route.substring(0, route.length() - "index".length())).replaceAll("");
        }
        return route.startsWith("/") ? route : "/" + route;
    }

    /** Differs between two builds of the same domain, so results cached from the old index are not reused. */
    public long generation() {
        return generation;
    }

    /** Each language's Lucene files, as {@link IndexFiles} persists them (their last commit: what is served). */
    Map<String, ByteBuffersDirectory> directories() {
        return languages.directories(byLanguage.keySet());
    }

    /** Whether this index was opened from its file ({@link #open}): that file needs no writing again. */
    boolean opened() {
        return opened;
    }

    /** Pages whose Lucene documents this build wrote: every page at first, the changed and added ones on a sync. */
    public int writtenPages() {
        return written;
    }

    /** Each passage's vector by its text (for a later build to reuse); null when searched by words only. */
    Map<String, float[]> vectors() {
        return semantic == null ? null : semantic.vectors();
    }

    /** Passages embedded by this build (0 when semantic search is off, or nothing changed since the last). */
    public int embeddedCount() {
        return semantic == null ? 0 : semantic.embedded();
    }

    public int languageCount() {
        return byLanguage.size();
    }

    public Navigation navigation() {
        return navigation;
    }

    /** The docs team's instructions for the assistant (their Assistant.md), "" if none. */
    public String instructions() {
        return instructions;
    }

    public int pageCount() {
        return pages.size();
    }

    /** Every page indexed, as read: what a sync compares to tell pages added, modified and removed. */
    public List<Page> pages() {
        return pages;
    }

    public int sectionCount() {
        return sectionCount;
    }
}
