package dev.docsassistant.search;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /** gitignore semantics, one case a row: the rules (one file's lines, space-separated), a path, the verdict. */
    @ParameterizedTest(name = "[{0}] {1} -> ignored: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # names without a slash match at any depth
            *.draft.mdx                              | intro.draft.mdx             | true
            *.draft.mdx                              | guides/deep/intro.draft.mdx | true
            *.draft.mdx                              | intro.mdx                   | false
            private-notes.md                         | a/private-notes.md          | true
            te?t.mdx                                 | text.mdx                    | true
            te?t.mdx                                 | teext.mdx                   | false
            # a matched directory hides its subtree; a trailing slash matches directories only
            internal                                 | guides/internal/deep/a.mdx  | true
            internal                                 | internals/a.mdx             | false
            build/                                   | build/x/y.mdx               | true
            build/                                   | build                       | false
            # a slash anchors to the root
            /todo.mdx                                | todo.mdx                    | true
            /todo.mdx                                | sub/todo.mdx                | false
            guides/old/                              | guides/old/a.mdx            | true
            guides/old/                              | v2/guides/old/a.mdx         | false
            # ** spans directories, * stays in one
            **/internal/**                           | x/y/internal/a.mdx          | true
            docs/**/secret.mdx                       | docs/secret.mdx             | true
            docs/**/secret.mdx                       | docs/a/b/secret.mdx         | true
            docs/**/secret.mdx                       | other/secret.mdx            | false
            docs/*.mdx                               | docs/a/b.mdx                | false
            # the last match wins, but a file in an ignored directory cannot be re-included (as in git)
            *.mdx !important.mdx                     | a.mdx                       | true
            *.mdx !important.mdx                     | x/important.mdx             | false
            old/* !old/keep.md                       | old/other.md                | true
            old/* !old/keep.md                       | old/keep.md                 | false
            locked/ !locked/a.mdx                    | locked/a.mdx                | true
            # an escaped # is a literal
            \\#hash.mdx                              | #hash.mdx                   | true
            """)
    void followsGitignoreRules(String rules, String path, boolean ignored) {
        assertEquals(ignored, MintIgnore.parse(String.join("\n", rules.split(" +"))).ignored(path));
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
