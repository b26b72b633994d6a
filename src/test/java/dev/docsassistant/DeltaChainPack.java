package dev.docsassistant;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.Deflater;

/**
 * A hand-made Git pack of a delta chain, written into a bare repository as its branch {@code main}: a blob of
 * {@link #BLOB_BYTES} (the per-object bound), then {@code depth} links, each an offset delta of the previous link of
 * a few bytes ("copy all but the last 8 bytes, insert 8") whose result is {@link #BLOB_BYTES} too; with
 * {@code leaves}, each link also has a second child, a leaf, written after the next link, so JGit (which resolves a
 * base's children in the order written) keeps each link's result in memory while it follows the chain. The commit's
 * tree holds every blob under {@code bomb/}; the repository's {@code pack.depth} lets {@code git upload-pack} reuse
 * the chain as it is, as a hostile server would send it.
 */
final class DeltaChainPack {

    static final int BLOB_BYTES = 5 << 20;

    private final ByteArrayOutputStream pack = new ByteArrayOutputStream();
    private final List<byte[]> blobIds = new ArrayList<>();
    private final MessageDigest prefix;
    private int count;

    private DeltaChainPack() throws NoSuchAlgorithmException {
        prefix = MessageDigest.getInstance("SHA-1");
        byte[] letters = new byte[BLOB_BYTES - 8];
        Arrays.fill(letters, (byte) 'a');
        prefix.update(("blob " + BLOB_BYTES + "\0").getBytes(StandardCharsets.US_ASCII));
        prefix.update(letters);
    }

    static void write(Path bare, int depth, boolean leaves) throws Exception {
        GitHttpServer.git(bare.getParent(), "init", "-q", "--bare", "-b", "main", bare.getFileName().toString());
        GitHttpServer.git(bare, "config", "pack.depth", "4095");
        DeltaChainPack chain = new DeltaChainPack();
        chain.pack.write("PACK".getBytes(StandardCharsets.US_ASCII));
        chain.pack.write(new byte[] {0, 0, 0, 2, 0, 0, 0, 0});
        byte[] base = new byte[BLOB_BYTES];
        Arrays.fill(base, (byte) 'a');
        System.arraycopy(tag('B', 0), 0, base, BLOB_BYTES - 8, 8);
        int previous = chain.pack.size();
        chain.object(3, base, -1);
        chain.blobIds.add(chain.blobId(tag('B', 0)));
        for (int link = 1; link <= depth; link++) {
            int position = chain.pack.size();
            chain.delta(previous, tag('B', link));
            if (leaves) {
                chain.delta(previous, tag('L', link));
            }
            previous = position;
        }
        ByteArrayOutputStream tree = new ByteArrayOutputStream();
        for (int i = 0; i < chain.blobIds.size(); i++) {
            tree.write(String.format("100644 f%05d\0", i).getBytes(StandardCharsets.US_ASCII));
            tree.write(chain.blobIds.get(i));
        }
        byte[] bombTree = chain.whole("tree", tree.toByteArray());
        ByteArrayOutputStream top = new ByteArrayOutputStream();
        top.write("40000 bomb\0".getBytes(StandardCharsets.US_ASCII));
        top.write(bombTree);
        byte[] topTree = chain.whole("tree", top.toByteArray());
        byte[] commit = chain.whole("commit", ("tree " + HexFormat.of().formatHex(topTree)
                + "\nauthor A <a@example.com> 0 +0000\ncommitter A <a@example.com> 0 +0000\n\nchain\n")
                .getBytes(StandardCharsets.US_ASCII));
        byte[] bytes = chain.pack.toByteArray();
        bytes[8] = (byte) (chain.count >>> 24);
        bytes[9] = (byte) (chain.count >>> 16);
        bytes[10] = (byte) (chain.count >>> 8);
        bytes[11] = (byte) chain.count;
        Path file = bare.resolve("objects/pack/pack-chain.pack");
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(bytes);
            out.write(MessageDigest.getInstance("SHA-1").digest(bytes));
        }
        GitHttpServer.git(bare, "index-pack", file.toString());
        GitHttpServer.git(bare, "update-ref", "refs/heads/main", HexFormat.of().formatHex(commit));
    }

    /** "B" or "L" and the link's number in 7 digits: what makes each blob of the chain distinct. */
    private static byte[] tag(char kind, int link) {
        return String.format("%c%07d", kind, link).getBytes(StandardCharsets.US_ASCII);
    }

    private byte[] blobId(byte[] tag) throws CloneNotSupportedException {
        MessageDigest digest = (MessageDigest) prefix.clone();
        return digest.digest(tag);
    }

    /** An offset delta of the object at {@code base}: its first {@code BLOB_BYTES - 8} bytes, then {@code tag}. */
    private void delta(int base, byte[] tag) throws Exception {
        int copied = BLOB_BYTES - 8;
        ByteArrayOutputStream delta = new ByteArrayOutputStream();
        varint(delta, BLOB_BYTES);
        varint(delta, BLOB_BYTES);
        delta.write(new byte[] {(byte) 0xf0, (byte) copied, (byte) (copied >>> 8), (byte) (copied >>> 16), 8});
        delta.write(tag);
        object(6, delta.toByteArray(), base);
        blobIds.add(blobId(tag));
    }

    /** A whole object of {@code type}, whose id it returns. */
    private byte[] whole(String type, byte[] content) throws NoSuchAlgorithmException {
        object(type.equals("tree") ? 2 : 1, content, -1);
        MessageDigest digest = MessageDigest.getInstance("SHA-1");
        digest.update((type + " " + content.length + "\0").getBytes(StandardCharsets.US_ASCII));
        return digest.digest(content);
    }

    private void object(int type, byte[] content, int base) {
        int position = pack.size();
        long size = content.length;
        int first = type << 4 | (int) (size & 15);
        size >>>= 4;
        while (size != 0) {
            pack.write(first | 0x80);
            first = (int) (size & 0x7f);
            size >>>= 7;
        }
        pack.write(first);
        if (base >= 0) { // the offset back to the base, in Git's offset encoding
            long offset = position - base;
            byte[] encoded = new byte[10];
            int at = encoded.length - 1;
            encoded[at] = (byte) (offset & 0x7f);
            while ((offset >>>= 7) != 0) {
                offset--;
                encoded[--at] = (byte) (0x80 | offset & 0x7f);
            }
            pack.write(encoded, at, encoded.length - at);
        }
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        deflater.setInput(content);
        deflater.finish();
        byte[] buffer = new byte[1 << 16];
        while (!deflater.finished()) {
            pack.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        count++;
    }

    private static void varint(ByteArrayOutputStream out, int value) {
        while (value >= 0x80) {
            out.write(value & 0x7f | 0x80);
            value >>>= 7;
        }
        out.write(value);
    }
}
