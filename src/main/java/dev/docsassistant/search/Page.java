package dev.docsassistant.search;

import java.util.List;

/** A documentation page: its route (leading slash, no extension), title and sections. */
public record Page(String path, String title, String description, List<Section> sections) {
}
