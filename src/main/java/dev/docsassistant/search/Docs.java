package dev.docsassistant.search;

import java.util.List;

/**
 * A documentation site as read from its folder: the navigation, every page search and the assistant may see, placed
 * in it, and the docs team's instructions for the assistant ({@code Assistant.md}, "" if none).
 */
public record Docs(Navigation navigation, List<Page> pages, String instructions) {
}
