package dev.docsassistant.search;

import java.util.List;

/**
 * A part of a page under one heading: what the index stores and the model quotes.
 *
 * @param anchor   the heading's anchor ({@code wildcards} in {@code /create/redirects#wildcards}), empty for the intro
 * @param headings the heading trail below the page title
 * @param text     the prose, MDX tags removed and their text kept
 * @param code     the code blocks' content
 */
public record Section(String anchor, List<String> headings, String text, String code) {
}
