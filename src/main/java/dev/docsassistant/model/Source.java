package dev.docsassistant.model;

/** A page the answer cites. */
public record Source(String id, String url, String title) {
}
