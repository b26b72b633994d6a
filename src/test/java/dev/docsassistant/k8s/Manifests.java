package dev.docsassistant.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.NonValidationKeyword;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import org.apache.camel.v1.Integration;
import org.apache.camel.v1.Pipe;
import org.apache.camel.v1.integrationspec.Traits;

/**
 * The checks CI runs over {@code k8s/} without a cluster: each kustomization's resources parsed strictly against the
 * Kubernetes API types (fabric8's model) and the Camel K CRD types, each Integration validated against the Camel K
 * CRD's own schema of every supported operator version, every ConfigMap or Secret key a manifest mounts present, and
 * every property a manifest sets one the application reads (and reads from where the manifest puts it). Each check
 * adds a readable problem.
 */
final class Manifests {

    /** The kinds the manifests may use, with the model class each is parsed as. */
    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.ofEntries(
            Map.entry("v1/ConfigMap", ConfigMap.class), Map.entry("v1/Secret", Secret.class),
            Map.entry("v1/Service", Service.class), Map.entry("v1/Namespace", Namespace.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("apps/v1/StatefulSet", StatefulSet.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
            Map.entry("camel.apache.org/v1/Integration", Integration.class),
            Map.entry("camel.apache.org/v1/Pipe", Pipe.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("gateway.networking.k8s.io/v1/HTTPRoute", HTTPRoute.class),
            Map.entry("monitoring.coreos.com/v1/PodMonitor", PodMonitor.class),
            Map.entry("monitoring.coreos.com/v1/PrometheusRule", PrometheusRule.class));
    private static final Set<String> KUSTOMIZATION_FIELDS = Set.of("apiVersion", "kind", "namespace", "labels",
            "resources", "components", "configMapGenerator", "secretGenerator", "images", "configurations");
    /** What kustomize requires of a directory listed under resources, and of one under components. */
    private static final String KUSTOMIZATION = "kustomize.config.k8s.io/v1beta1/Kustomization";
    private static final String COMPONENT = "kustomize.config.k8s.io/v1alpha1/Component";
    /** Where Camel K puts {@code kamel run -p}, the camel trait's properties and {@code mount.configs}. */
    private static final String CAMEL_K_CONF_D = "/etc/camel/conf.d";
    private static final String CLOUD_LOCATION = "camel.main.cloud-properties-location";
    private static final Pattern MOUNT = Pattern.compile("(configmap|secret):([a-z0-9.-]+)(?:/([^@]+))?(?:@(.+))?");
    private static final Pattern ENV_VAR = Pattern.compile("([A-Z][A-Z0-9_]*)=(.*)");

    private static final ObjectMapper YAML = YAMLMapper.builder().build();
    /** The maps a CRD leaves free-form (x-kubernetes-preserve-unknown-fields): a Pipe step's Kamelet properties. */
    private static final Set<Class<?>> FREE_FORM = Set.of(org.apache.camel.v1.pipespec.steps.Properties.class);
    /** Unknown fields fail, also on types that would otherwise keep them in an "additional properties" map. */
    private static final ObjectMapper STRICT = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addModule(new SimpleModule().setDeserializerModifier(new BeanDeserializerModifier() {
                @Override
                public BeanDeserializerBuilder updateBuilder(DeserializationConfig config, BeanDescription bean,
                        BeanDeserializerBuilder builder) {
                    if (!FREE_FORM.contains(bean.getBeanClass())) {
                        builder.setAnySetter(null);
                    }
                    return builder;
                }
            })).build();
    /**
     * A CRD's schema language: OpenAPI 3.0's, with Kubernetes's extensions known. They say how the API server stores
     * and merges a field, or hold its CEL rules, which this check does not run; unknown fields are refused as the
     * extension x-kubernetes-preserve-unknown-fields says (see refuseUnknownFields).
     */
    private static final Dialect CRD_DIALECT = Dialect.builder(Dialects.getOpenApi30())
            .keywords(List.of("x-kubernetes-preserve-unknown-fields", "x-kubernetes-int-or-string",
                    "x-kubernetes-list-map-keys", "x-kubernetes-list-type", "x-kubernetes-map-type",
                    "x-kubernetes-embedded-resource", "x-kubernetes-validations").stream()
                    .map(NonValidationKeyword::new).toList())
            .build();
    /** The Integration CRD's schema per Camel K version (src/test/resources/camel-k, copied from apache/camel-k). */
    private static final Map<String, Schema> INTEGRATION_SCHEMAS = Map.of(
            "2.4.0", integrationSchema("integrations-v2.4.0.yaml"),
            "2.10.1", integrationSchema("integrations-v2.10.1.yaml"));

    final List<String> problems = new ArrayList<>();
    /** Every file a kustomization names (resources, generator inputs, kustomizations). */
    final Set<Path> used = new LinkedHashSet<>();
    private final Set<String> knownProperties;

    /** @param knownProperties the properties the application reads, each {@link #normalized} */
    Manifests(Set<String> knownProperties) {
        this.knownProperties = knownProperties;
    }

    /** What one {@code kubectl apply -k dir} would create, with the ConfigMaps and Secrets its generators make. */
    /**
     * @param hashed               generated ConfigMaps and Secrets, whose names kustomize suffixes with a hash (and
     *                             rewrites only where it knows a reference: not in a Camel K Integration by itself)
     * @param integrationReferences the kinds whose names kustomize rewrites in an Integration too ({@code
     *                             configurations:} nameReference)
     */
    record Build(List<HasMetadata> resources, Map<String, Map<String, String>> configMaps,
            Map<String, Map<String, String>> secrets, Set<String> hashed, Set<String> integrationReferences) {
    }

    Build build(Path dir) {
        Build build = new Build(new ArrayList<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), new HashSet<>(),
                new HashSet<>());
        collect(dir, build);
        return build;
    }

    private void collect(Path dir, Build build) {
        collect(dir, build, KUSTOMIZATION);
    }

    /**
     * A kustomization's resources, then its components' (kustomize applies components after the resources and
     * generators of the kustomization that lists them; this check needs their union only).
     */
    private void collect(Path dir, Build build, String expectedKind) {
        Path file = dir.resolve("kustomization.yaml");
        JsonNode kustomization = read(file);
        if (kustomization == null) {
            problems.add(dir + ": no kustomization.yaml");
            return;
        }
        used.add(file.toAbsolutePath().normalize());
        String kind = kustomization.path("apiVersion").asText() + "/" + kustomization.path("kind").asText();
        if (!kind.equals(expectedKind)) {
            problems.add(file + ": is a " + kind + " where kustomize takes only a " + expectedKind);
        }
        kustomization.fieldNames().forEachRemaining(field -> {
            if (!KUSTOMIZATION_FIELDS.contains(field)) {
                problems.add(file + ": unexpected field " + field);
            }
        });
        for (JsonNode resource : kustomization.path("resources")) {
            Path path = dir.resolve(resource.asText()).normalize();
            if (Files.isDirectory(path)) {
                collect(path, build, KUSTOMIZATION);
            } else if (Files.isRegularFile(path)) {
                used.add(path.toAbsolutePath().normalize());
                parse(path, build.resources()::add);
            } else {
                problems.add(file + ": resource " + resource.asText() + " does not exist");
            }
        }
        generate(dir, file, kustomization.path("configMapGenerator"), build.configMaps(), build.hashed());
        generate(dir, file, kustomization.path("secretGenerator"), build.secrets(), build.hashed());
        for (JsonNode configuration : kustomization.path("configurations")) {
            Path path = dir.resolve(configuration.asText()).normalize();
            JsonNode transformers = read(path);
            if (transformers == null) {
                problems.add(file + ": configuration " + configuration.asText() + " does not exist");
                continue;
            }
            used.add(path.toAbsolutePath().normalize());
            for (JsonNode reference : transformers.path("nameReference")) {
                for (JsonNode spec : reference.path("fieldSpecs")) {
                    if (spec.path("kind").asText().equals("Integration")) {
                        build.integrationReferences().add(reference.path("kind").asText());
                    }
                }
            }
        }
        for (JsonNode component : kustomization.path("components")) {
            collect(dir.resolve(component.asText()).normalize(), build, COMPONENT);
        }
    }

    private void generate(Path dir, Path file, JsonNode generators, Map<String, Map<String, String>> into,
            Set<String> hashed) {
        for (JsonNode generator : generators) {
            if (!generator.path("options").path("disableNameSuffixHash").asBoolean()) {
                hashed.add(generator.path("name").asText());
            }
            Map<String, String> data = into.computeIfAbsent(generator.path("name").asText(), n -> new LinkedHashMap<>());
            for (JsonNode source : generator.path("files")) {
                Path path = dir.resolve(source.asText());
                if (Files.isRegularFile(path)) {
                    used.add(path.toAbsolutePath().normalize());
                    data.put(path.getFileName().toString(), readString(path));
                } else {
                    problems.add(file + ": generator file " + source.asText() + " does not exist");
                }
            }
        }
    }

    /** Each document of a manifest file, parsed as its kind's model class. */
    void parse(Path file, Consumer<HasMetadata> into) {
        try {
            Iterator<JsonNode> documents = YAML.readValues(YAML.createParser(file.toFile()), JsonNode.class);
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                String type = document.path("apiVersion").asText() + "/" + document.path("kind").asText();
                Class<? extends HasMetadata> kind = KINDS.get(type);
                if (kind == null) {
                    problems.add(file + ": unknown kind " + type);
                    continue;
                }
                if (kind == Integration.class) {
                    INTEGRATION_SCHEMAS.forEach((version, schema) -> {
                        for (Error error : schema.validate(document)) {
                            problems.add(file + ": not valid for Camel K " + version + ": " + error);
                        }
                    });
                }
                try {
                    into.accept(STRICT.treeToValue(document, kind));
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    problems.add(file + ": not a valid " + type + ": " + e.getOriginalMessage());
                }
            }
        } catch (IOException e) {
            problems.add(file + ": not YAML: " + e.getMessage());
        }
    }

    /** Mounted keys exist, labels select what they should, and every property set is one the application reads. */
    void check(Build build) {
        for (HasMetadata resource : build.resources()) {
            if (resource instanceof ConfigMap map) {
                build.configMaps().put(map.getMetadata().getName(), orEmpty(map.getData()));
            } else if (resource instanceof Secret secret) {
                Map<String, String> data = new LinkedHashMap<>();
                orEmpty(secret.getData()).forEach((key, base64) -> data.put(key,
                        new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8)));
                data.putAll(orEmpty(secret.getStringData()));
                build.secrets().put(secret.getMetadata().getName(), data);
            }
        }
        for (HasMetadata resource : build.resources()) {
            String where = resource.getKind() + " " + resource.getMetadata().getName();
            if (resource instanceof Deployment deployment) {
                checkPods(where, deployment.getSpec().getTemplate(), build);
                Map<String, String> selector = deployment.getSpec().getSelector().getMatchLabels();
                if (!deployment.getSpec().getTemplate().getMetadata().getLabels().entrySet()
                        .containsAll(selector.entrySet())) {
                    problems.add(where + ": the selector does not match the pod labels");
                }
            } else if (resource instanceof Integration integration) {
                checkTraits(where, integration.getSpec().getTraits(), build);
                if (integration.getSpec().getTemplate() != null) {
                    PodSpec pod = new ObjectMapper().convertValue(integration.getSpec().getTemplate().getSpec(),
                            PodSpec.class);
                    checkPods(where, new PodTemplateSpec(null, pod), build);
                    for (Container container : pod.getContainers()) {
                        for (EnvVar env : orEmpty(container.getEnv())) {
                            if (env.getValueFrom() != null && env.getValueFrom().getSecretKeyRef() != null
                                    && build.hashed().contains(env.getValueFrom().getSecretKeyRef().getName())
                                    && !build.integrationReferences().contains("Secret")) {
                                problems.add(where + ": names Secret " + env.getValueFrom().getSecretKeyRef()
                                        .getName() + ", whose generated name kustomize suffixes with a hash and "
                                        + "rewrites in no Integration (add a nameReference configuration)");
                            }
                        }
                    }
                }
            }
        }
        build.configMaps().forEach((name, data) -> checkPropertyFiles("ConfigMap " + name, data));
        build.secrets().forEach((name, data) -> checkPropertyFiles("Secret " + name, data));
        checkSelectors(build);
    }

    private void checkPods(String where, PodTemplateSpec pod, Build build) {
        for (Volume volume : orEmpty(pod.getSpec().getVolumes())) {
            if (volume.getConfigMap() != null) {
                requireKeys(where, "ConfigMap", volume.getConfigMap().getName(), volume.getConfigMap().getItems(),
                        build.configMaps());
            }
            if (volume.getSecret() != null) {
                requireKeys(where, "Secret", volume.getSecret().getSecretName(), volume.getSecret().getItems(),
                        build.secrets());
            }
        }
        for (Container container : pod.getSpec().getContainers()) {
            for (EnvVar env : orEmpty(container.getEnv())) {
                if (env.getValueFrom() == null) {
                    requireProperty(where + " env", env.getName());
                } else if (env.getValueFrom().getSecretKeyRef() != null) {
                    requireKey(where, "Secret", env.getValueFrom().getSecretKeyRef().getName(),
                            env.getValueFrom().getSecretKeyRef().getKey(), build.secrets());
                } else if (env.getValueFrom().getConfigMapKeyRef() != null) {
                    requireKey(where, "ConfigMap", env.getValueFrom().getConfigMapKeyRef().getName(),
                            env.getValueFrom().getConfigMapKeyRef().getKey(), build.configMaps());
                }
            }
        }
    }

    private void checkTraits(String where, Traits traits, Build build) {
        if (traits.getMount() != null) {
            List<String> mounts = new ArrayList<>(orEmpty(traits.getMount().getResources()));
            mounts.addAll(orEmpty(traits.getMount().getConfigs()));
            for (String mount : mounts) {
                Matcher m = MOUNT.matcher(mount);
                if (!m.matches()) {
                    problems.add(where + ": mount " + mount + " is not [configmap|secret]:name[/key][@path]");
                    continue;
                }
                Map<String, Map<String, String>> pool = m.group(1).equals("secret") ? build.secrets()
                        : build.configMaps();
                String kind = m.group(1).equals("secret") ? "Secret" : "ConfigMap";
                if (m.group(3) == null) {
                    requireKeys(where, kind, m.group(2), List.of(), pool);
                } else {
                    requireKey(where, kind, m.group(2), m.group(3), pool);
                }
            }
        }
        if (traits.getEnvironment() != null) {
            for (String variable : orEmpty(traits.getEnvironment().getVars())) {
                Matcher m = ENV_VAR.matcher(variable);
                if (m.matches()) {
                    requireProperty(where + " environment", m.group(1));
                } else {
                    problems.add(where + ": environment variable " + variable + " is not NAME=value");
                }
            }
        }
        // The camel trait's properties (as kamel run -p) and mount.configs without a path land in CAMEL_K_CONF_D:
        // they apply only where the application reads that folder.
        List<String> landInConfD = new ArrayList<>();
        if (traits.getCamel() != null) {
            for (String property : orEmpty(traits.getCamel().getProperties())) {
                requireProperty(where + " camel.properties", property.split("=", 2)[0]);
                landInConfD.add("camel.properties " + property.split("=", 2)[0]);
            }
        }
        if (traits.getMount() != null) {
            orEmpty(traits.getMount().getConfigs()).stream().filter(config -> !config.contains("@"))
                    .forEach(config -> landInConfD.add("mount.configs " + config));
        }
        List<String> read = cloudLocations(traits);
        if (!landInConfD.isEmpty() && !read.contains(CAMEL_K_CONF_D)) {
            problems.add(where + ": " + landInConfD + " land in " + CAMEL_K_CONF_D + ", which " + CLOUD_LOCATION + " "
                    + read + " does not read");
        }
        if (traits.getLogging() != null && !Boolean.FALSE.equals(traits.getLogging().getEnabled())
                && (traits.getLogging().getLevel() != null || traits.getLogging().getJson() != null
                        || traits.getLogging().getFormat() != null)) {
            problems.add(where + ": the logging trait configures Quarkus's logging, which this image's logback ignores");
        }
    }

    /** The folders the Integration's container reads settings from: its environment's, else the bundled default. */
    private static List<String> cloudLocations(Traits traits) {
        String locations = orEmpty(traits.getEnvironment() == null ? null : traits.getEnvironment().getVars()).stream()
                .map(ENV_VAR::matcher).filter(Matcher::matches)
                .filter(m -> normalized(m.group(1)).equals(normalized(CLOUD_LOCATION))).map(m -> m.group(2))
                .reduce((first, last) -> last).orElseGet(() -> bundledProperty(CLOUD_LOCATION));
        return locations == null ? List.of()
                : Arrays.stream(locations.split(",")).map(String::trim).filter(l -> !l.isEmpty()).toList();
    }

    /** A property of the bundled application.properties, as written. */
    static String bundledProperty(String name) {
        Properties bundled = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            bundled.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bundled.getProperty(name);
    }

    /**
     * The Integration schema of one Camel K CRD file, with unknown fields refused where the API server would drop
     * them (kubectl's default strict field validation refuses them too): every object schema that lists its
     * properties, and neither keeps unknown fields nor says what other fields may hold.
     */
    private static Schema integrationSchema(String crd) {
        try (InputStream in = Manifests.class.getResourceAsStream("/camel-k/" + crd)) {
            JsonNode schema = null;
            for (JsonNode version : YAML.readTree(in).path("spec").path("versions")) {
                if (version.path("name").asText().equals("v1")) {
                    schema = version.path("schema").path("openAPIV3Schema");
                }
            }
            refuseUnknownFields(schema);
            return SchemaRegistry.withDefaultDialect(CRD_DIALECT).getSchema(schema);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void refuseUnknownFields(JsonNode schema) {
        if (!(schema instanceof ObjectNode node)) {
            return;
        }
        if (node.has("properties") && !node.has("additionalProperties")
                && !node.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
            node.put("additionalProperties", false);
        }
        node.path("properties").forEach(Manifests::refuseUnknownFields);
        refuseUnknownFields(node.path("items"));
        refuseUnknownFields(node.path("additionalProperties"));
        for (String combination : List.of("allOf", "anyOf", "oneOf")) {
            node.path(combination).forEach(Manifests::refuseUnknownFields);
        }
    }

    private void checkSelectors(Build build) {
        Set<Map<String, String>> podLabels = new LinkedHashSet<>();
        Set<String> deployments = new LinkedHashSet<>();
        for (HasMetadata resource : build.resources()) {
            if (resource instanceof Deployment deployment) {
                podLabels.add(deployment.getSpec().getTemplate().getMetadata().getLabels());
                deployments.add(deployment.getMetadata().getName());
} else if (resource instanceof StatefulSet statefulSet) {
                podLabels.add(statefulSet.getSpec().getTemplate().getMetadata().getLabels());
            }
        }
        for (HasMetadata resource : build.resources()) {
            Map<String, String> selector = resource instanceof Service service ? service.getSpec().getSelector()
                    : resource instanceof PodDisruptionBudget pdb ? pdb.getSpec().getSelector().getMatchLabels()
                    : null;
            if (selector != null && podLabels.stream().noneMatch(labels -> labels.entrySet()
                    .containsAll(selector.entrySet()))) {
                problems.add(resource.getKind() + " " + resource.getMetadata().getName() + ": selects no pods");
            }
            if (resource instanceof HorizontalPodAutoscaler hpa
                    && !deployments.contains(hpa.getSpec().getScaleTargetRef().getName())) {
                problems.add("HorizontalPodAutoscaler " + hpa.getMetadata().getName() + ": no such Deployment");
            }
        }
    }

    private void checkPropertyFiles(String where, Map<String, String> data) {
        data.forEach((key, content) -> {
            if (key.endsWith(".properties")) {
                Properties properties = new Properties();
                try {
                    properties.load(new StringReader(content));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                properties.stringPropertyNames().forEach(name -> requireProperty(where + " " + key, name));
            }
        });
    }

    private void requireKeys(String where, String kind, String name, List<KeyToPath> items,
            Map<String, Map<String, String>> pool) {
        Map<String, String> data = pool.get(name);
        if (data == null) {
            problems.add(where + ": mounts " + kind + " " + name + ", which no manifest defines");
            return;
        }
        for (KeyToPath item : orEmpty(items)) {
            requireKey(where, kind, name, item.getKey(), pool);
        }
    }

    private void requireKey(String where, String kind, String name, String key, Map<String, Map<String, String>> pool) {
        Map<String, String> data = pool.get(name);
        if (data == null) {
            problems.add(where + ": mounts " + kind + " " + name + ", which no manifest defines");
        } else if (!data.containsKey(key)) {
            problems.add(where + ": " + kind + " " + name + " has no key " + key + " (has " + data.keySet() + ")");
        }
    }

    private void requireProperty(String where, String name) {
        if (!knownProperties.contains(normalized(name)) && !normalized(name).startsWith("otel")) { // OTEL_*: the SDK's
            problems.add(where + ": " + name + " is no property the application reads");
        }
    }

    /** A property or environment variable name compared loosely: assistant.routes-dir = ASSISTANT_ROUTES_DIR. */
    static String normalized(String name) {
        return name.replaceAll("[._-]", "").toLowerCase(Locale.ROOT);
    }

    /** The application's own properties and camel-main's options (from camel-main's metadata). */
    static Set<String> knownProperties(Path applicationProperties) throws IOException {
        Set<String> known = new LinkedHashSet<>();
        Properties own = new Properties();
        try (InputStream in = Files.newInputStream(applicationProperties)) {
            own.load(in);
        }
        own.stringPropertyNames().forEach(name -> known.add(normalized(name)));
        known.add(normalized("ASSISTANT_LOG_FORMAT")); // read by logback.xml, before Camel starts
        try (InputStream in = Manifests.class.getResourceAsStream("/META-INF/camel-main-configuration-metadata.json")) {
            for (JsonNode option : new ObjectMapper().readTree(in).path("properties")) {
                known.add(normalized(option.path("name").asText()));
            }
        }
        return known;
    }

    private JsonNode read(Path file) {
        try {
            return Files.isRegularFile(file) ? YAML.readTree(file.toFile()) : null;
        } catch (IOException e) {
            problems.add(file + ": not YAML: " + e.getMessage());
            return null;
        }
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
