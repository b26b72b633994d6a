package dev.docsassistant.search;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The model's vectors are the sentence-transformers ones, the same whoever else asks at the same moment. */
class SentenceEncoderTest {

    private static final String QUESTION = "How do I run the local preview on a port other than 3000?";

    @Test
    void vectorsAreTheModelsMeanPooledOutput() {
        SentenceEncoder encoder = new SentenceEncoder();
        float[] question = encoder.encode(QUESTION);
        assertEquals(1, SemanticIndex.dot(question, question), 1e-5, "a unit vector");
        // the first components of langchain4j's encoder for the same model and text (mean pooling, normalized):
        // the vectors kept in index files before this encoder stay comparable with the questions it embeds
        assertArrayEquals(new float[] {0.038485f, -0.024583f, -0.116682f, -0.095738f, -0.003174f, -0.025262f},
                Arrays.copyOf(question, 6), 1e-4f);
        float[] answer = encoder.encode("Preview › Custom port. Run the development server on another port with the "
                + "--port flag, for example mint dev --port 3333, when 3000 is already taken.");
        float[] unrelated = encoder.encode("Billing. Download your invoices from the dashboard.");
        assertTrue(SemanticIndex.dot(question, answer) > SemanticIndex.dot(question, unrelated) + 0.2,
                "the question is nearer the passage that answers it");
    }

    /** A client's text costs the model at most 128 word pieces, however long it is: the rest is never read. */
    @Test
    void theModelReadsAtMost128WordPieces() {
        SentenceEncoder encoder = new SentenceEncoder();
        String start = "How do I rotate the signing keys of the dashboard? ".repeat(12); // past 128 pieces
        assertArrayEquals(encoder.encode(start), encoder.encode(start + "unrelated words ".repeat(50_000)), 1e-6f);
    }

    @Test
    void questionsAskedAtOnceGetTheVectorsTheyGetAlone() throws Exception {
        SentenceEncoder encoder = new SentenceEncoder();
        List<String> questions = new ArrayList<>();
        for (int q = 0; q < 40; q++) {
            questions.add("How do I change the colours of the sidebar? (" + q + " " + "again ".repeat(q % 7) + ")");
        }
        List<CompletableFuture<Future<float[]>>> asking = questions.stream()
                .map(question -> CompletableFuture.supplyAsync(() -> SemanticIndex.embed(question))).toList();
        for (int q = 0; q < questions.size(); q++) {
            assertArrayEquals(encoder.encode(questions.get(q)), asking.get(q).get().get(), 1e-6f, questions.get(q));
        }
    }
}
