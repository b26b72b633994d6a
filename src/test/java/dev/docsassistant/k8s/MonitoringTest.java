package dev.docsassistant.k8s;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.docsassistant.SameOnAnyJdk;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PrometheusRule's groups and every query of the Grafana dashboard in k8s/monitoring, checked by Prometheus's
 * own {@code promtool check rules} (the dashboard's queries as recording rules, its variables given a value).
 * Skipped where promtool is not installed (Debian's prometheus package has it).
 */
@SameOnAnyJdk
class MonitoringTest {

    private static final Path MONITORING = Path.of("k8s/monitoring");

    @Test
    void theAlertsAndTheDashboardsQueriesArePromQLThatPromtoolAccepts(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(onPath("promtool"), "promtool is not installed (apt-get install prometheus): skipped");
        YAMLMapper yaml = new YAMLMapper();
        JsonNode rule = yaml.readTree(MONITORING.resolve("prometheusrule.yaml").toFile());
        Path alerts = dir.resolve("alerts.yaml");
        yaml.writeValue(alerts.toFile(), Map.of("groups", rule.at("/spec/groups")));

        JsonNode dashboard = new ObjectMapper().readTree(MONITORING.resolve("docs-assistant-dashboard.json").toFile());
        List<Map<String, String>> queries = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(Map.of("record", "dashboard:panel" + panel.path("id").asInt() + ":" + target.path("refId")
                        .asText(), "expr", target.path("expr").asText().replace("$domain", ".*")));
            }
        }
        assertFalse(queries.isEmpty());
        Path recorded = dir.resolve("dashboard.yaml");
        yaml.writeValue(recorded.toFile(), Map.of("groups", List.of(Map.of("name", "dashboard", "rules", queries))));

        Process check = new ProcessBuilder("promtool", "check", "rules", alerts.toString(), recorded.toString())
                .redirectErrorStream(true).start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, check.waitFor(), output);
    }

    /**
     * Each alert fires on the series the service exports when its failure happens, and only then:
     * {@code promtool test rules} runs alerts-test.yaml's cases (Redis stopped under load, records dropped, a domain
     * unreachable, a broken tenants file) against the PrometheusRule's groups.
     */
    @Test
    void eachAlertFiresOnTheServicesOwnSeries(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(onPath("promtool"), "promtool is not installed (apt-get install prometheus): skipped");
        YAMLMapper yaml = new YAMLMapper();
        JsonNode rule = yaml.readTree(MONITORING.resolve("prometheusrule.yaml").toFile());
        yaml.writeValue(dir.resolve("alerts.yaml").toFile(), Map.of("groups", rule.at("/spec/groups")));
        Path cases = Files.copy(MONITORING.resolve("alerts-test.yaml"), dir.resolve("alerts-test.yaml"));
        JsonNode tested = yaml.readTree(cases.toFile());
        for (JsonNode group : rule.at("/spec/groups")) {
            for (JsonNode alert : group.path("rules")) {
                assertTrue(tested.toString().contains("\"alertname\":\"" + alert.path("alert").asText() + "\""),
                        "alerts-test.yaml has a case for " + alert.path("alert").asText());
            }
        }
        Process test = new ProcessBuilder("promtool", "test", "rules", cases.toString()).directory(dir.toFile())
                .redirectErrorStream(true).start();
        String output = new String(test.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, test.waitFor(), output);
    }

    private static boolean onPath(String command) throws IOException {
        for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(folder, command))) {
                return true;
            }
        }
        return false;
    }
}
