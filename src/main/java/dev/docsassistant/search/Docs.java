package dev.docsassistant.search;

import java.util.List;

/** A documentation site as read from its folder: the navigation and every page, placed in it. */
public record Docs(Navigation navigation, List<Page> pages) {
}
