package dev.docsassistant.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * One domain's Lucene index per language, kept across syncs: a sync writes the documents of the pages that changed
 * or were added ({@code updateDocuments} by page path) and deletes those of removed pages, commits, and reopens the
 * language's reader, which shares every unchanged segment with the one before. A reader is a point-in-time view of a
 * commit, so searches on the index in use never see a sync half done, and a sync that fails rolls its language back
 * to its last commit. Each language remembers the pages its last commit holds and compares against them, not
 * against the index served: after a failure half-way through the languages, the next sync still writes every page
 * that differs. Not thread-safe: one domain's syncs run one at a time ({@link DomainIndexes}).
 */
final class LanguageIndexes {

    /** The indexed, unstored field a page's documents are replaced and deleted by. */
    static final String PATH = "path";
    /** Doc values naming each document's page (path, and which of the pages sharing that path) and section. */
    static final String PAGE = "page";
    static final String VARIANT = "variant";
    static final String SECTION = "section";

    private final Map<String, Language> languages = new HashMap<>();

    /** One language's index: its files, the writer that changes them, and the pages (by path) its last commit holds. */
    private static final class Language {
        final String name;
        final ByteBuffersDirectory directory;
        Map<String, List<Page>> held;
        DirectoryReader reader;
        private IndexWriter writer;

        Language(String name, ByteBuffersDirectory directory, Map<String, List<Page>> held) {
            this.name = name;
            this.directory = directory;
            this.held = held;
        }

        IndexWriter writer() throws IOException {
            if (writer == null) {
                writer = new IndexWriter(directory, new IndexWriterConfig(Analyzers.forLanguage(name)));
            }
            return writer;
        }

        /** Writes the pages that differ from the last commit and commits; returns how many pages it wrote. */
        int apply(Map<String, List<Page>> pages) throws IOException {
            int written = 0;
            try {
                for (Map.Entry<String, List<Page>> path : pages.entrySet()) {
                    List<Page> before = held.get(path.getKey());
                    if (before == null) {
                        writer().addDocuments(documents(path.getValue()));
                    } else if (!before.equals(path.getValue())) {
                        writer().updateDocuments(new Term(PATH, path.getKey()), documents(path.getValue()));
                    } else {
                        continue;
                    }
                    written += path.getValue().size();
                }
                for (String path : held.keySet()) {
                    if (!pages.containsKey(path)) {
                        writer().deleteDocuments(new Term(PATH, path));
                    }
                }
                if (writer != null && writer.hasUncommittedChanges()) {
                    writer.commit();
                }
            } catch (IOException | RuntimeException e) {
                if (writer != null) {
                    writer.rollback(); // back to the last commit, which held describes
                    writer = null;
                }
                throw e;
            }
            held = pages;
            return written;
        }

        /** The last commit's reader: the one before if nothing changed, else reopened sharing unchanged segments. */
        DirectoryReader reader() throws IOException {
            DirectoryReader changed = reader == null ? DirectoryReader.open(directory)
                    : DirectoryReader.openIfChanged(reader);
            if (changed != null) {
                reader = changed; // the one before stays open for the index still serving it (collected with it)
            }
            return reader;
        }
    }

    /** What one {@link #apply} made: each language's reader, and how many pages it wrote documents for. */
    record Applied(Map<String, DirectoryReader> readers, int written) {
    }

    /** Indexes opened from their files ({@link IndexFiles}), which hold exactly these pages. */
    static LanguageIndexes opened(Map<String, ByteBuffersDirectory> directories, List<Page> pages) {
        LanguageIndexes indexes = new LanguageIndexes();
        Map<String, Map<String, List<Page>>> byLanguage = byLanguage(pages);
        directories.forEach((language, directory) -> indexes.languages.put(language,
                new Language(language, directory, byLanguage.getOrDefault(language, Map.of()))));
        return indexes;
    }

    /** Brings each language's index to these pages and returns the readers of the languages that have pages. */
    Applied apply(List<Page> pages) throws IOException {
        Map<String, Map<String, List<Page>>> byLanguage = byLanguage(pages);
        Set<String> names = new LinkedHashSet<>(languages.keySet());
        names.addAll(byLanguage.keySet());
        Map<String, DirectoryReader> readers = new HashMap<>();
        int written = 0;
        for (String name : names) {
            Language language = languages.computeIfAbsent(name,
                    n -> new Language(n, DomainIndex.inMemory(), Map.of()));
            Map<String, List<Page>> now = byLanguage.getOrDefault(name, Map.of());
            written += language.apply(now);
            if (!now.isEmpty()) {
                readers.put(name, language.reader());
            }
        }
        return new Applied(readers, written);
    }

    /** Each language's files, for {@link IndexFiles} to keep (their last commit). */
    Map<String, ByteBuffersDirectory> directories(Set<String> served) {
        Map<String, ByteBuffersDirectory> directories = new HashMap<>();
        served.forEach(language -> directories.put(language, languages.get(language).directory));
        return directories;
    }

    /**
     * Pages by language, then by path in the docs' order: the pages sharing a path ({@code a.md} and {@code a.mdx})
     * are one unit of change, told apart by their place in it ({@link #VARIANT}).
     */
    static Map<String, Map<String, List<Page>>> byLanguage(List<Page> pages) {
        Map<String, Map<String, List<Page>>> byLanguage = new LinkedHashMap<>();
        for (Page page : pages) {
            byLanguage.computeIfAbsent(page.language(), language -> new LinkedHashMap<>())
                    .computeIfAbsent(page.path(), path -> new ArrayList<>(1)).add(page);
        }
        return byLanguage;
    }

    /** Each page's ordinal in the docs, by language, path and variant: what a document's doc values resolve to. */
    static Map<String, Map<String, int[]>> ordinals(List<Page> pages) {
        Map<Page, Integer> ordinal = new IdentityHashMap<>();
        for (int p = 0; p < pages.size(); p++) {
            ordinal.put(pages.get(p), p);
        }
        Map<String, Map<String, int[]>> ordinals = new HashMap<>();
        byLanguage(pages).forEach((language, paths) -> {
            Map<String, int[]> byPath = new HashMap<>();
            paths.forEach((path, variants) -> byPath.put(path,
                    variants.stream().mapToInt(ordinal::get).toArray()));
            ordinals.put(language, byPath);
        });
        return ordinals;
    }

    private static List<Document> documents(List<Page> variants) {
        List<Document> documents = new ArrayList<>();
        for (int v = 0; v < variants.size(); v++) {
            Page page = variants.get(v);
            for (int s = 0; s < page.sections().size(); s++) {
                documents.add(document(page, v, page.sections().get(s), s));
            }
        }
        return documents;
    }

    private static Document document(Page page, int variant, Section section, int sectionOrdinal) {
        Document doc = new Document();
        doc.add(new StringField(PATH, page.path(), Field.Store.NO));
        doc.add(new SortedDocValuesField(PAGE, new BytesRef(page.path())));
        doc.add(new NumericDocValuesField(VARIANT, variant));
        doc.add(new NumericDocValuesField(SECTION, sectionOrdinal));
        doc.add(new StringField("version", page.version(), Field.Store.NO));
        if (page.groups().isEmpty()) {
            doc.add(new StringField("access", "public", Field.Store.NO));
        }
        for (String group : page.groups()) {
            doc.add(new StringField("group", group, Field.Store.NO));
        }
        doc.add(new TextField("title", page.title(), Field.Store.NO));
        doc.add(new TextField("summary", page.description() + "\n" + String.join("\n", page.keywords()),
                Field.Store.NO));
        doc.add(new TextField("headings", String.join("\n", section.headings()), Field.Store.NO));
        doc.add(new TextField("body", section.words(), Field.Store.NO));
        doc.add(new TextField("code", section.codeLines(), Field.Store.NO));
        if (Analyzers.readsTwice(page.language())) {
            doc.add(new TextField(Analyzers.SECOND_READING, page.title() + "\n" + String.join("\n", section.headings())
                    + "\n" + section.words(), Field.Store.NO));
        }
        return doc;
    }
}
