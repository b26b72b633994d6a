package dev.docsassistant.search;

import java.util.List;

/**
 * A documentation site as read from its folder: the navigation, every page search and the assistant may see, placed
 * in it, the docs team's instructions for the assistant ({@code Assistant.md}, "" if none), and the pages left out
 * for passing a {@link PageLimits} bound ({@code /route: why}).
 */
public record Docs(Navigation navigation, List<Page> pages, String instructions, List<String> skipped) {
}
