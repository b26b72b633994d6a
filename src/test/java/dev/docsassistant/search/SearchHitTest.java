package dev.docsassistant.search;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SearchHitTest {

    @Test
    void anExcerptCutInsideABlockStillClosesIt() {
        String code = "````bash\n" + "echo ```\n".repeat(400) + "````";
        Section section = new Section("run", List.of("Run"), "Run it:", code);
        Page page = new Page("/run", "Run", "", List.of(), "", List.of(section), "en", "", List.of(), false,
                List.of());

        String content = new SearchHit(page, List.of(section), "https://docs.example.com/run", 1, 0.5).content();

        assertTrue(content.startsWith("Run\n\nRun it:\n\n````bash\necho ```\n"), content);
        assertTrue(content.endsWith("…\n````"), "the block is closed with its own fence: " + content);
        assertEquals(null, Section.openFence(content, line -> { }));
    }
}
