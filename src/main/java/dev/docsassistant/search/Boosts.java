package dev.docsassistant.search;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Mintlify's {@code boost}, a page's (frontmatter) or a navigation group's (docs.json): a positive multiplier of its
 * pages' search scores. Docs are untrusted: anything but a positive finite number is no boost, and a boost is held
 * within [{@value #MIN}, {@value #MAX}] (Mintlify advises 0.1 to 10).
 */
final class Boosts {

    static final double MIN = 0.01;
    static final double MAX = 100;

    private Boosts() {
    }

    /** The boost a frontmatter value (a number, or a number as text) or a docs.json node sets; null for none. */
    static Double of(Object value) {
        double boost;
        if (value instanceof Number number) {
            boost = number.doubleValue();
        } else if (value instanceof JsonNode node && node.isNumber()) {
            boost = node.asDouble();
        } else if (value instanceof String text) {
            try {
                boost = Double.parseDouble(text.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        } else {
            return null;
        }
        return Double.isFinite(boost) && boost > 0 ? Math.max(MIN, Math.min(MAX, boost)) : null;
    }
}
