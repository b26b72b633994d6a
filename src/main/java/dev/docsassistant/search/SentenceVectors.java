package dev.docsassistant.search;

/**
 * The sentence encoder the semantic index uses (all-MiniLM-L6-v2, in-process), for the steps that compare texts by
 * meaning outside a search: the analytics' topics. One model run a text (~2.5 ms of one core for a question), so a
 * caller runs it off a request's path.
 */
public final class SentenceVectors {

    private SentenceVectors() {
    }

    /**
     * The text's unit vector (384 floats); the same text always gives the same vector, so it comes from the questions'
     * cache when search embedded it already (or embeds it there, on the embedder threads). Shared: never modify it.
     */
    public static float[] of(String text) {
        return SemanticIndex.vector(text);
    }

    /** The cosine of two unit vectors. */
    public static double cosine(float[] a, float[] b) {
        return SemanticIndex.dot(a, b);
    }
}
