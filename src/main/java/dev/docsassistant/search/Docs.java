package dev.docsassistant.search;

import java.util.List;

/**
 * A documentation site as read from its folder: the navigation, every page search and the assistant may see, placed
 * in it, the docs team's instructions for the assistant ({@code Assistant.md}, "" if none), and the pages left out
 * for passing a {@link PageLimits} bound ({@code /route: why}).
 *
 * @param listed the pages llms.txt lists (its column of Mintlify's visibility table, {@link Indexing#listed}), placed,
 *               in path order: those of {@code pages} and the {@code searchable: false} ones
 */
public record Docs(Navigation navigation, List<Page> pages, String instructions, List<Page> listed,
        List<String> skipped) {

    /** Docs whose listed pages are the searchable ones, none left out. */
    public Docs(Navigation navigation, List<Page> pages, String instructions) {
        this(navigation, pages, instructions, pages, List.of());
    }
}
