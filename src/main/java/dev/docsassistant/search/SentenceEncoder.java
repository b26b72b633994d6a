package dev.docsassistant.search;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Map;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

/**
 * all-MiniLM-L6-v2 (quantized) on ONNX Runtime: a text to a unit vector, the mean of the model's output over the
 * text's word pieces. One text per run: the quantized model scales its activations by what a run holds, so a text
 * run beside others (padded to the longest) gets a slightly different vector (cosine 0.99), and a question's
 * results would depend on who asked at the same moment. Safe to share between threads (ONNX Runtime's session is).
 */
final class SentenceEncoder {

    /** The model and tokenizer files, inside langchain4j's model jar (a dependency for these two resources). */
    private static final String MODEL = "all-minilm-l6-v2-q.onnx";
    private static final String TOKENIZER = "all-minilm-l6-v2-q-tokenizer.json";
    /**
     * Word pieces the model reads of a text, its two markers included; the rest is cut off. The model's tokenizer
     * file says 128, the length it was trained on, which the vectors kept so far were computed with.
     */
    private static final int MAX_TOKENS = 128;

    private final OrtEnvironment environment = OrtEnvironment.getEnvironment();
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;

    SentenceEncoder() {
        try (InputStream model = resource(MODEL); InputStream tokenizerFile = resource(TOKENIZER)) {
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            // One thread a run, runs side by side on the embedder threads: a run split over two threads finishes
            // sooner on idle cores, but its threads spin between steps, 1.5 times the CPU a question costs
            // (3.7 ms against 2.5 ms here) taken from the requests on a busy service.
            options.setIntraOpNumThreads(1);
            session = environment.createSession(model.readAllBytes(), options);
            tokenizer = HuggingFaceTokenizer.newInstance(tokenizerFile, Map.of("padding", "false",
                    "truncation", "true", "maxLength", Integer.toString(MAX_TOKENS)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (OrtException e) {
            throw new IllegalStateException("Cannot load the embedding model", e);
        }
    }

    private static InputStream resource(String name) {
        InputStream in = SentenceEncoder.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("The embedding model's " + name + " is not on the classpath");
        }
        return in;
    }

    /** The text's vector. */
    float[] encode(String text) {
        long[] ids = tokenizer.encode(text).getIds();
        long[] mask = new long[ids.length];
        Arrays.fill(mask, 1);
        long[] shape = {1, ids.length};
        try (OnnxTensor idTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape);
                OnnxTensor maskTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape);
                OnnxTensor typeTensor = OnnxTensor.createTensor(environment, LongBuffer.wrap(new long[ids.length]),
                        shape);
                OrtSession.Result result = session.run(Map.of("input_ids", idTensor, "attention_mask", maskTensor,
                        "token_type_ids", typeTensor))) {
            return meanOfUnit(((float[][][]) result.get(0).getValue())[0]);
        } catch (OrtException e) {
            throw new IllegalStateException("The embedding model failed", e);
        }
    }

    /** The mean of a text's output vectors, one per word piece, scaled to length 1. */
    private static float[] meanOfUnit(float[][] outputs) {
        float[] vector = new float[outputs[0].length];
        for (int t = 0; t < outputs.length; t++) {
            for (int d = 0; d < vector.length; d++) {
                vector[d] += outputs[t][d];
            }
        }
        double norm = Math.sqrt(SemanticIndex.dot(vector, vector));
        for (int d = 0; d < vector.length && norm > 0; d++) {
            vector[d] /= (float) norm;
        }
        return vector;
    }
}
