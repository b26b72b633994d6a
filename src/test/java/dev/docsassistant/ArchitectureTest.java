package dev.docsassistant;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The house's order. Its packages stand in one line, shared ground first, then the steps in the order a request meets
 * them, the HTTP edge that wraps them last: a package may use those before it and never one after it, so no step
 * depends on a later step's types, and the packages form no loop.
 */
@SameOnAnyJdk
class ArchitectureTest {

    private static final String ROOT = "dev.docsassistant";

    /**
     * Ground first. ground: the base types every step shares and the step contract; config: the tenants; store and
     * observe: where state and numbers go. Then the steps: auth, ratelimit, request (body, validation), custom (own
     * steps), sources (docs fetched from where they live, for search to index), search, model, thread (the
     * conversation, read before the model and written after it), stream; analytics, the store of record written after
     * the answer and the analytics read from it. Last web, the HTTP edge: the request log, CORS, problem responses,
     * connection handling.
     */
    private static final List<String> LAYERS = List.of("ground", "config", "store", "observe", "auth", "ratelimit",
            "request", "custom", "sources", "search", "model", "thread", "stream", "analytics", "agents", "web");

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(ROOT);

    @Test
    void noPackageUsesALaterOne() {
        LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (String layer : LAYERS) {
            layers = layers.layer(layer).definedBy(ROOT + "." + layer + "..");
        }
        for (int i = 0; i < LAYERS.size() - 1; i++) {
            layers = layers.whereLayer(LAYERS.get(i))
                    .mayOnlyBeAccessedByLayers(LAYERS.subList(i + 1, LAYERS.size()).toArray(String[]::new));
        }
        layers.whereLayer(LAYERS.get(LAYERS.size() - 1)).mayNotBeAccessedByAnyLayer().check(CLASSES);
    }

    @Test
    void packagesFormNoLoop() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    /** A new package takes its place in {@link #LAYERS}, so the order says where it stands. */
    @Test
    void everyPackageHasItsPlace() {
        Set<String> packages = new TreeSet<>();
        for (JavaClass type : CLASSES) {
            String name = type.getPackageName();
            if (name.startsWith(ROOT + ".")) {
                packages.add(name.substring(ROOT.length() + 1).split("\\.")[0]);
            }
        }
        assertEquals(new TreeSet<>(LAYERS), packages);
    }
}
