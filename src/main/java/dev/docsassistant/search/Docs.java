package dev.docsassistant.search;

import java.util.List;

/**
 * A documentation site as read from its folder: the navigation, every page search and the assistant may see, placed
 * in it, and the docs team's instructions for the assistant ({@code Assistant.md}, "" if none).
 *
 * @param listed the pages llms.txt lists (its column of Mintlify's visibility table, {@link Indexing#listed}), placed,
 *               in path order: those of {@code pages} and the {@code searchable: false} ones
 */
public record Docs(Navigation navigation, List<Page> pages, String instructions, List<Page> listed) {

    /** Docs whose listed pages are the searchable ones. */
    public Docs(Navigation navigation, List<Page> pages, String instructions) {
        this(navigation, pages, instructions, pages);
    }
}
