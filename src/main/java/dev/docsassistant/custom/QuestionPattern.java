package dev.docsassistant.custom;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.request.ChatRequest;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.Predicate;
import org.apache.camel.support.ExpressionAdapter;
import org.apache.camel.support.LanguageSupport;

/**
 * The {@code question-pattern} language of the own steps (refuse-question-action): true when its pattern is found
 * anywhere in the request's question (the newest user message of {@value StepContract#REQUEST}; false where there is
 * no question, as on the discovery endpoints). The pattern is RE2/J's, which matches in time linear in the question
 * (already bounded by {@code assistant.request.max-text-chars}) whatever the pattern, where java.util.regex
 * backtracks without end on a hostile question. It is compiled once, when its route is created, so a pattern that
 * does not compile stops its route file from loading instead of failing every request. Found by Camel through
 * {@code META-INF/services/org/apache/camel/language/question-pattern}.
 */
public class QuestionPattern extends LanguageSupport {

    /**
     * The operator's pattern compiled as the language runs it.
     *
     * @throws IllegalArgumentException naming the pattern's error, for a pattern RE2/J does not accept (such as a
     *                                  backreference or a lookaround, which it leaves out to stay linear)
     */
    public static Pattern compile(String pattern) {
        try {
            return Pattern.compile(pattern, Pattern.DOTALL);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("Not an RE2 pattern: " + e.getMessage(), e);
        }
    }

    @Override
    public Predicate createPredicate(String pattern) {
        return new Found(compile(pattern));
    }

    @Override
    public Expression createExpression(String pattern) {
        return new Found(compile(pattern));
    }

    /** Whether the question holds the pattern: a predicate, or a boolean expression. */
    public static final class Found extends ExpressionAdapter implements Predicate {

        private final Pattern pattern;

        Found(Pattern pattern) {
            this.pattern = pattern;
        }

        /** The compiled pattern: RE2/J's, never java.util.regex's. */
        public Pattern pattern() {
            return pattern;
        }

        @Override
        public boolean matches(Exchange exchange) {
            ChatRequest request = exchange.getProperty(StepContract.REQUEST, ChatRequest.class);
            return request != null && pattern.matcher(request.question()).find();
        }

        @Override
        public Object evaluate(Exchange exchange) {
            return matches(exchange);
        }

        @Override
        public String toString() {
            return "question-pattern:" + pattern.pattern();
        }
    }
}
