package dev.docsassistant;

import java.util.ArrayList;
import java.util.List;

import org.apache.camel.model.BeanDefinition;
import org.apache.camel.model.ExpressionNode;
import org.apache.camel.model.Model;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.model.RouteConfigurationDefinition;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.model.language.MethodCallExpression;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No step a request runs binds a bean by reflection: a {@code bean:} step or the {@code method} language resolves
 * and invokes its method reflectively on every exchange, so request steps name a Processor or an Expression
 * ({@code process: ref:}, {@code setBody: ref:}). Routes started by a timer (start-up, reloads) may.
 */
@CamelMainTest(properties = {"camel.server.port=0", "assistant.tenants-file=src/test/resources/tenants.yaml"})
class RequestStepsTest extends ServiceTest {

    @Test
    void noRequestStepBindsABeanReflectively() {
        Model model = context.getCamelContextExtension().getContextPlugin(Model.class);
        List<String> checked = new ArrayList<>();
        List<String> reflective = new ArrayList<>();
        for (RouteDefinition route : model.getRouteDefinitions()) {
            if (!route.getInput().getEndpointUri().startsWith("timer:")) {
                checked.add(route.getId());
                collect(route.getId(), route.getOutputs(), reflective);
            }
        }
        for (RouteConfigurationDefinition configuration : model.getRouteConfigurationDefinitions()) {
            configuration.getOnExceptions().forEach(on -> collect(configuration.getId(), on.getOutputs(), reflective));
            configuration.getOnCompletions().forEach(on -> collect(configuration.getId(), on.getOutputs(), reflective));
        }

        assertTrue(checked.containsAll(List.of("cors-preflight", "discovery-v1-search", "discovery-v1-page",
                "assistant-v1-message", "assistant-v2-message", "search", "chat-completions")), checked.toString());
        assertEquals(List.of(), reflective);
    }

    private static void collect(String where, List<ProcessorDefinition<?>> steps, List<String> reflective) {
        for (ProcessorDefinition<?> step : steps) {
            if (step instanceof BeanDefinition
                    || step instanceof ExpressionNode node && node.getExpression() instanceof MethodCallExpression) {
                reflective.add(where + ": " + step);
            }
            collect(where, step.getOutputs(), reflective);
        }
    }
}
