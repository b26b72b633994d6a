package dev.docsassistant.search;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.ByteBuffersDataInput;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.ByteBuffersIndexInput;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.Version;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Built indexes kept between starts, so a start or reload whose docs did not change embeds and analyzes nothing.
 * A domain's index is one file, {@code <dir>/<domain>/<model>/<key>.index} ({@code words} for the model when
 * searched by words only): its Lucene files and its passages' vectors, named by a key digesting what it was built
 * from (every page as parsed, the model, the Lucene version and the code that builds it), so a file is only ever
 * opened for exactly the docs it holds. It carries Lucene's codec header and
 * a CRC-32 footer, checked in full before anything of it is used: a corrupt, truncated or foreign file is logged and
 * the index built again, never served. A file is written under a temporary name, synced, then renamed into place
 * (atomic): readers, other replicas included, see the whole file or none.
 *
 * <p>When the docs changed, the domain's newest file of the same model still lends its vectors, so an edit to one page embeds
 * that page alone, after a restart as on a live reload. The folder may be read-only (an image's or an init step's
 * copy shared by replicas): a valid file is used, an invalid one rebuilt in memory. Indexes of the bundled docs are
 * built with the jar ({@link #main}) and found on the classpath under {@value #BUNDLED}.
 */
public final class IndexFiles {

    private static final Logger LOG = LoggerFactory.getLogger(IndexFiles.class);

    private static final String CODEC = "DocsAssistantIndex";
    private static final int FORMAT = 1;
    private static final String SUFFIX = ".index";
    static final String BUNDLED = "search-index/";
    /** The classes whose code decides what an index holds: a file written by other code is not reused. */
    private static final List<Class<?>> BUILDERS = List.of(DomainIndex.class, LanguageIndexes.class, Analyzers.class,
            SemanticIndex.class);

    private final Path dir;

    /** @param dir where domains' indexes are kept; blank keeps none (bundled indexes are still used) */
    public IndexFiles(String dir) {
        this.dir = dir == null || dir.isBlank() ? null : Path.of(dir);
    }

    /**
     * Builds a docs folder's index (searched by meaning too, the default) where the service looks for it:
     * {@code IndexFiles <docs folder> <index dir> <domain>}; or, for the bundled docs, straight into a folder the jar
     * includes as {@value #BUNDLED}: {@code IndexFiles <docs folder> <folder>}.
     */
    public static void main(String[] args) throws IOException {
        Docs docs = DocsFolder.read(args[0]);
        IndexFiles files = new IndexFiles(args[1]);
        String domain = args.length > 2 ? args[2] : null;
        DomainIndex index = files.index(domain, docs, "", true, null);
        files.keep(domain, index, true);
        LOG.info("Index of {}: {} passages embedded", args[0], index.embeddedCount());
    }

    /**
     * The domain's index of these docs. With {@code previous} (the index in use) it is that index brought to these
     * docs, writing only the pages that changed and reusing its vectors. Otherwise it is opened from its file if one
     * is valid (the domain's own, else a bundled one), or built, reusing the vectors of the domain's newest file.
     * Nothing is written here: {@link #keep} persists the index once it serves.
     *
     * @param domain the domain, or null for the bundled docs' index (built into the folder itself)
     */
    public DomainIndex index(String domain, Docs docs, String siteUrl, boolean semantic, DomainIndex previous)
            throws IOException {
        if (previous != null) {
            Map<String, float[]> known = previous.vectors();
            return DomainIndex.build(docs, siteUrl, semantic, known == null ? Map.of() : known, previous);
        }
        Path folder = folder(domain, semantic);
        String name = key(docs.pages(), semantic ? SemanticIndex.MODEL : "") + SUFFIX;
        String key = name.substring(0, name.length() - SUFFIX.length());
        Path file = folder == null ? null : folder.resolve(name);
        DomainIndex opened = file == null ? null : open(file.toString(), () -> read(file), key, docs, siteUrl);
        if (opened == null) {
            opened = open("classpath:" + BUNDLED + name, () -> bundled(BUNDLED + name), key, docs, siteUrl);
        }
        if (opened != null) {
            return opened;
        }
        return DomainIndex.build(docs, siteUrl, semantic, folder == null || !semantic ? Map.of()
                : newestVectors(folder, name), null);
    }

    /**
     * Keeps the index served for the next start, unless it was opened from its file: a restart opens exactly what
     * was served, and the key names the docs it holds, so a file of earlier docs is never opened for newer ones. A
     * folder that cannot be written leaves the index in memory only.
     */
    public void keep(String domain, DomainIndex index, boolean semantic) {
        Path folder = folder(domain, semantic);
        if (folder == null || index.opened()) {
            return;
        }
        String key = key(index.pages(), semantic ? SemanticIndex.MODEL : "");
        try {
            write(folder, key + SUFFIX, key, index);
        } catch (IOException e) {
            LOG.warn("Cannot keep the index in {} ({}): it is in memory only, and built again at the next start",
                    folder, e.toString());
        }
    }

    /** One folder per model: turning meaning off and on keeps both files, and vectors are reused within a model. */
    private Path folder(String domain, boolean semantic) {
        if (dir == null) {
            return null;
        }
        return domain == null ? dir : dir.resolve(domain).resolve(semantic ? SemanticIndex.MODEL : "words");
    }

    /** A file's bytes, or null if there is no such file. */
    private interface Source {
        byte[] read() throws IOException;
    }

    private static byte[] read(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static byte[] bundled(String resource) throws IOException {
        try (InputStream in = IndexFiles.class.getClassLoader().getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        }
    }

    /** The index in a file, or null if there is none or it is unusable (logged). */
    private static DomainIndex open(String file, Source source, String key, Docs docs, String siteUrl) {
        long started = System.nanoTime();
        try {
            byte[] bytes = source.read();
            if (bytes == null) {
                return null;
            }
            Contents contents = contents(file, bytes, key);
            DomainIndex index = DomainIndex.open(docs, siteUrl, contents.directories(), contents.vectors());
            LOG.info("Opened the index in {} ({} KiB) in {} ms", file, bytes.length / 1024,
                    (System.nanoTime() - started) / 1_000_000);
            return index;
        } catch (IOException | RuntimeException e) {
            LOG.warn("Index file {} is unusable, building the index again: {}", file, e.toString());
            return null;
        }
    }

    /** What a file holds, read in full and checked against its checksum and key before any of it is used. */
    private record Contents(Map<String, ByteBuffersDirectory> directories, Map<String, float[]> vectors) {
    }

    private static Contents contents(String file, byte[] bytes, String key) throws IOException {
        try (IndexInput in = new ByteBuffersIndexInput(new ByteBuffersDataInput(List.of(ByteBuffer.wrap(bytes))),
                file)) {
            CodecUtil.checksumEntireFile(in); // before reading any of it: a damaged count must not size an array
            CodecUtil.checkHeader(in, CODEC, FORMAT, FORMAT);
            String written = in.readString();
            if (!written.equals(key)) {
                throw new CorruptIndexException("holds the index of other docs or code (" + written + ")", in);
            }
            Map<String, float[]> vectors = null;
            if (in.readByte() == 1) {
                int count = in.readVInt();
                int dimensions = in.readVInt();
                vectors = new HashMap<>(count * 2);
                for (int v = 0; v < count; v++) {
                    String text = in.readString();
                    float[] vector = new float[dimensions];
                    in.readFloats(vector, 0, dimensions);
                    vectors.put(text, vector);
                }
            }
            Map<String, ByteBuffersDirectory> directories = new HashMap<>();
            for (int languages = in.readVInt(); languages > 0; languages--) {
                ByteBuffersDirectory directory = DomainIndex.inMemory();
                directories.put(in.readString(), directory);
                for (int files = in.readVInt(); files > 0; files--) {
                    try (IndexOutput out = directory.createOutput(in.readString(), IOContext.DEFAULT)) {
                        out.copyBytes(in, in.readVLong());
                    }
                }
            }
            return new Contents(directories, vectors);
        }
    }

    /**
     * Writes the index as {@code name} in the folder (atomically: a synced temporary file renamed), then deletes
     * the folder's other files, indexes of earlier docs.
     */
    private static void write(Path folder, String name, String key, DomainIndex index) throws IOException {
        long started = System.nanoTime();
        try (FSDirectory files = FSDirectory.open(folder)) {
            String temporary;
            try (IndexOutput out = files.createTempOutput(key, "partial", IOContext.DEFAULT)) {
                temporary = out.getName();
                CodecUtil.writeHeader(out, CODEC, FORMAT);
                out.writeString(key);
                Map<String, float[]> vectors = index.vectors();
                out.writeByte((byte) (vectors == null ? 0 : 1));
                if (vectors != null) {
                    out.writeVInt(vectors.size());
                    out.writeVInt(vectors.isEmpty() ? 0 : vectors.values().iterator().next().length);
                    for (Map.Entry<String, float[]> vector : vectors.entrySet()) {
                        out.writeString(vector.getKey());
                        for (float value : vector.getValue()) {
                            out.writeInt(Float.floatToIntBits(value));
                        }
                    }
                }
                out.writeVInt(index.directories().size());
                for (Map.Entry<String, ByteBuffersDirectory> language : index.directories().entrySet()) {
                    out.writeString(language.getKey());
                    // the last commit's files: a writer's files of changes not committed are no part of the index
                    Collection<String> names = SegmentInfos.readLatestCommit(language.getValue()).files(true);
                    out.writeVInt(names.size());
                    for (String file : names) {
                        try (IndexInput in = language.getValue().openInput(file, IOContext.READONCE)) {
                            out.writeString(file);
                            out.writeVLong(in.length());
                            out.copyBytes(in, in.length());
                        }
                    }
                }
                CodecUtil.writeFooter(out);
            }
            files.sync(Set.of(temporary));
            files.rename(temporary, name);
            files.syncMetaData();
            for (String other : files.listAll()) {
                if (!other.equals(name) && other.endsWith(SUFFIX)) {
                    files.deleteFile(other);
                }
            }
        }
        LOG.info("Wrote the index to {} in {} ms", folder.resolve(name), (System.nanoTime() - started) / 1_000_000);
    }

    /**
     * The vectors of the folder's newest valid index file but {@code unusable}: most passages of docs edited since
     * are unchanged.
     */
    private static Map<String, float[]> newestVectors(Path folder, String unusable) {
        if (!Files.isDirectory(folder)) {
            return Map.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(SUFFIX) && !f.endsWith(unusable))
                    .sorted(Comparator.comparing(IndexFiles::modified).reversed()).toList()) {
                try {
                    String name = file.getFileName().toString();
                    Map<String, float[]> vectors =
                            contents(file.toString(), Files.readAllBytes(file), name.substring(0, name.length() - SUFFIX.length()))
                                    .vectors();
                    if (vectors != null) {
                        return vectors;
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.warn("Index file {} is unusable: {}", file, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.warn("Cannot list index files in {}: {}", folder, e.toString());
        }
        return Map.of();
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * A digest of everything an index is built from: each page as parsed (what is indexed, in order), the model
     * (empty for words only), the file format, Lucene's version, and the bytes of the classes that build it.
     */
    static String key(List<Page> pages, String model) {
        MessageDigest digest = sha256();
        update(digest, CODEC + FORMAT, model, Version.LATEST.toString());
        for (Class<?> builder : BUILDERS) {
            try (InputStream code = builder.getResourceAsStream(builder.getSimpleName() + ".class")) {
                digest.update(code.readAllBytes());
            } catch (IOException e) {
                throw new IllegalStateException("Cannot read the class " + builder.getName(), e);
            }
        }
        for (Page page : pages) {
            update(digest, page.path(), page.title(), page.description(), page.content(), page.language(),
                    page.version(), Boolean.toString(page.hidden()));
            update(digest, page.keywords().toArray(String[]::new));
            update(digest, page.breadcrumb().toArray(String[]::new));
            update(digest, page.groups().toArray(String[]::new));
            for (Section section : page.sections()) {
                update(digest, section.anchor(), section.text(), section.code());
                update(digest, section.headings().toArray(String[]::new));
            }
        }
        return HexFormat.of().formatHex(digest.digest()).substring(0, 32);
    }

    /** Each text with its length first, and the count of texts, so no two different lists digest alike. */
    private static void update(MessageDigest digest, String... texts) {
        digest.update(ByteBuffer.allocate(4).putInt(texts.length).flip());
        for (String text : texts) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            digest.update(ByteBuffer.allocate(4).putInt(bytes.length).flip());
            digest.update(bytes);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
