package dev.docsassistant.search;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MintIgnoreTest {

    @Test
    void readsTheRootFile(@TempDir Path root) throws IOException {
        assertFalse(MintIgnore.read(root).ignored("drafts/a.mdx"), "no .mintignore: nothing is ignored");

        Files.writeString(root.resolve(".mintignore"), "# drafts stay private\r\n\r\ndrafts/\r\n");
        MintIgnore ignore = MintIgnore.read(root);

        assertTrue(ignore.ignored("drafts/a.mdx"));
        assertFalse(ignore.ignored("published/a.mdx"));
        assertFalse(ignore.ignored("# drafts stay private"), "comments are not patterns");
    }

    @Test
    void namesWithoutSlashMatchAtAnyDepth() {
        MintIgnore ignore = MintIgnore.parse("*.draft.mdx\nprivate-notes.md\nte?t.mdx\n");

        assertTrue(ignore.ignored("intro.draft.mdx"));
        assertTrue(ignore.ignored("guides/deep/intro.draft.mdx"));
        assertTrue(ignore.ignored("a/private-notes.md"));
        assertTrue(ignore.ignored("text.mdx"));
        assertFalse(ignore.ignored("teext.mdx"));
        assertFalse(ignore.ignored("intro.mdx"));
    }

    @Test
    void aMatchedDirectoryHidesItsSubtree() {
        MintIgnore ignore = MintIgnore.parse("internal\nbuild/\n");

        assertTrue(ignore.ignored("internal/a.mdx"));
        assertTrue(ignore.ignored("guides/internal/deep/a.mdx"));
        assertTrue(ignore.ignored("build/x/y.mdx"));
        assertFalse(ignore.ignored("build"), "a trailing slash matches directories only");
        assertFalse(ignore.ignored("internals/a.mdx"));
    }

    @Test
    void slashesAnchorToTheRoot() {
        MintIgnore ignore = MintIgnore.parse("/todo.mdx\nguides/old/\n");

        assertTrue(ignore.ignored("todo.mdx"));
        assertFalse(ignore.ignored("sub/todo.mdx"));
        assertTrue(ignore.ignored("guides/old/a.mdx"));
        assertFalse(ignore.ignored("v2/guides/old/a.mdx"));
    }

    @Test
    void doubleStarSpansDirectories() {
        MintIgnore ignore = MintIgnore.parse("**/internal/**\ndocs/**/secret.mdx\n");

        assertTrue(ignore.ignored("internal/a.mdx"));
        assertTrue(ignore.ignored("x/y/internal/a.mdx"));
        assertTrue(ignore.ignored("docs/secret.mdx"));
        assertTrue(ignore.ignored("docs/a/b/secret.mdx"));
        assertFalse(ignore.ignored("other/secret.mdx"));
        assertFalse(MintIgnore.parse("docs/*.mdx").ignored("docs/a/b.mdx"), "a single star stays in one folder");
    }

    @Test
    void theLastMatchWins() {
        MintIgnore ignore = MintIgnore.parse("*.mdx\n!important.mdx\nold/*\n!old/keep.md\nlocked/\n!locked/a.mdx\n");

        assertTrue(ignore.ignored("a.mdx"));
        assertFalse(ignore.ignored("important.mdx"));
        assertFalse(ignore.ignored("x/important.mdx"));
        assertTrue(ignore.ignored("old/other.md"));
        assertFalse(ignore.ignored("old/keep.md"), "old/* ignores the files, so one can be re-included");
        assertTrue(ignore.ignored("locked/a.mdx"), "as in git, a file in an ignored directory cannot be re-included");
        assertTrue(MintIgnore.parse("\\#hash.mdx").ignored("#hash.mdx"), "an escaped # is a literal");
    }

    @Test
    void mintlifysDefaultPatternsApplyWithoutAFile(@TempDir Path empty) throws IOException {
        MintIgnore ignore = MintIgnore.read(empty);

        assertTrue(ignore.ignored("README.md"));
        assertTrue(ignore.ignored("guides/CHANGELOG.md"));
        assertTrue(ignore.ignored("node_modules/pkg/readme.md"));
        assertTrue(ignore.ignored("dist/index.mdx"));
        assertFalse(ignore.ignored("en/use/build/goto-anything.mdx"), "a docs folder named build is not an output");
        assertFalse(ignore.ignored("guides/readme-tips.mdx"));
        assertFalse(ignore.ignored("changelog.mdx"), "a changelog page is a page; CHANGELOG.md is a repository file");
    }
}
