package dev.docsassistant.k8s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.SameOnAnyJdk;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import org.apache.camel.v1.Integration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a platform team checks first in {@code k8s/}, on what {@code kubectl apply -k} would apply: who may reach the
 * pods (NetworkPolicies), Redis's login (an ACL user whose password only a Secret holds, the service given the same),
 * no service-account token, replicas spread, the Redis store a kustomize Component, the Gateway API route and the
 * PodMonitor aimed at what exists.
 */
@SameOnAnyJdk
class LockedDownManifestsTest {

    private static final Path K8S = Path.of("k8s");
    private static final Map<String, String> SERVICE_PODS = Map.of("app.kubernetes.io/name", "docs-assistant");
    /** The label Camel K's operator puts on an Integration's pods. */
    private static final Map<String, String> CAMEL_K_PODS = Map.of("camel.apache.org/integration", "docs-assistant");
    private static final Map<String, String> REDIS_PODS = Map.of("app.kubernetes.io/name", "docs-assistant-redis");
    private static final Map<String, String> POSTGRES_PODS = Map.of("app.kubernetes.io/name",
            "docs-assistant-postgres");
    private static Manifests manifests;
    private static Manifests.Build demo;
    private static Manifests.Build camelK;

    @BeforeAll
    static void build() throws IOException {
        manifests = new Manifests(Manifests.knownProperties(Path.of("src/main/resources/application.properties")));
        demo = manifests.build(K8S.resolve("overlays/demo"));
        camelK = manifests.build(K8S.resolve("camel-k"));
    }

    @Test
    void theApiIsReachedFromTheGatewayTheManagementPortFromMonitoringAndTheStoresFromTheServiceOnly() {
        NetworkPolicy service = policy(demo, SERVICE_PODS);
        assertEquals(List.of("Ingress", "Egress"), service.getSpec().getPolicyTypes());
        Map<String, NetworkPolicyIngressRule> byPort = byPort(service);
        assertEquals(Set.of("http", "management"), byPort.keySet(), "no other port is open");
        for (NetworkPolicyPeer peer : byPort.get("http").getFrom()) {
            assertTrue(peer.getPodSelector() == null && peer.getIpBlock() == null, "namespaces only: " + peer);
            assertFalse(peer.getNamespaceSelector().getMatchExpressions().isEmpty(), "named namespaces: " + peer);
        }
        assertEquals(List.of(Map.of("kubernetes.io/metadata.name", "monitoring")), byPort.get("management").getFrom()
                .stream().map(p -> p.getNamespaceSelector().getMatchLabels()).toList());
        assertEquals(SERVICE_PODS, deployment(demo, "docs-assistant").getSpec().getTemplate().getMetadata().getLabels());

        for (Manifests.Build build : List.of(demo, camelK)) {
            for (Map.Entry<Map<String, String>, String> store : Map.of(REDIS_PODS, "redis", POSTGRES_PODS,
                    "postgres").entrySet()) {
                NetworkPolicy policy = policy(build, store.getKey());
                NetworkPolicyIngressRule only = byPort(policy).get(store.getValue());
                assertEquals(1, byPort(policy).size());
                assertEquals(List.of(SERVICE_PODS, CAMEL_K_PODS), only.getFrom().stream()
                        .map(p -> p.getPodSelector().getMatchLabels()).toList(), "the Deployment's pods or Camel K's");
            }
        }
        assertEquals(List.of(), manifests.problems);
    }

    /**
     * Egress is restricted too: DNS, Redis, the store of record's PostgreSQL, the collector placeholder, and HTTPS or SSH to public
     * addresses only (never the cluster's private ranges, nor the cloud's metadata address); Camel K's pods get the
     * same rules as the Deployment's, so their management port is not open cluster-wide.
     */
    @Test
    void thePodsReachOnlyWhatTheyNeedAndCamelKsPodsAreCoveredAlike() {
        NetworkPolicy service = policy(demo, SERVICE_PODS);
        List<NetworkPolicyEgressRule> egress = service.getSpec().getEgress();
        assertFalse(egress.isEmpty());
        for (NetworkPolicyEgressRule rule : egress) {
            assertFalse(rule.getPorts().isEmpty(), "every rule names its ports: " + rule);
            for (NetworkPolicyPeer peer : rule.getTo()) {
                if (peer.getIpBlock() != null) {
                    assertTrue(peer.getIpBlock().getExcept().containsAll(List.of("10.0.0.0/8", "172.16.0.0/12",
                            "192.168.0.0/16", "169.254.0.0/16")), "public addresses only: " + peer);
                }
            }
        }
        assertTrue(egress.stream().anyMatch(rule -> rule.getPorts().stream().anyMatch(p -> p.getPort().getIntVal() == 53
                && "UDP".equals(p.getProtocol()))), "DNS");
        assertTrue(egress.stream().anyMatch(rule -> rule.getTo().stream().anyMatch(peer -> peer.getPodSelector() != null
                && REDIS_PODS.equals(peer.getPodSelector().getMatchLabels()))), "Redis");
        assertTrue(egress.stream().anyMatch(rule -> rule.getTo().stream().anyMatch(peer -> peer.getPodSelector() != null
                && POSTGRES_PODS.equals(peer.getPodSelector().getMatchLabels()))), "the store of record's PostgreSQL");

        NetworkPolicy integration = policy(camelK, CAMEL_K_PODS);
        assertEquals(service.getSpec().getPolicyTypes(), integration.getSpec().getPolicyTypes());
        assertEquals(service.getSpec().getIngress(), integration.getSpec().getIngress());
        assertEquals(egress, integration.getSpec().getEgress());
        assertEquals(List.of(), manifests.problems);
    }

    @Test
    void redisRefusesAnyoneWithoutTheServicesPasswordFromTheSecret() {
        for (Manifests.Build build : List.of(demo, camelK)) {
            Container redis = deployment(build, "docs-assistant-redis").getSpec().getTemplate().getSpec()
                    .getContainers().get(0);
            assertTrue(redis.getImage().startsWith("valkey/valkey:"), "Valkey (BSD), not Redis 7.4+ (RSALv2/SSPL)");
            String acl = String.join(" ", redis.getArgs());
            assertTrue(acl.contains("--user default off"), "no login without a password: " + acl);
            assertTrue(acl.contains("--user docs-assistant on >$(REDIS_PASSWORD) "), acl);
            SecretKeySelector redisPassword = env(redis, "REDIS_PASSWORD").getValueFrom().getSecretKeyRef();
            assertTrue(build.secrets().get(redisPassword.getName()).containsKey(redisPassword.getKey()),
                    "the Secret holds the password");

            Container service = serviceContainer(build);
            assertEquals("docs-assistant", env(service, "ASSISTANT_REDIS_USERNAME").getValue());
            assertEquals(redisPassword, env(service, "ASSISTANT_REDIS_PASSWORD").getValueFrom().getSecretKeyRef());
        }
    }

    @Test
    void noPodGetsAServiceAccountTokenAndTheServiceSpreadsOverNodesAndZones() {
        for (HasMetadata resource : demo.resources()) {
            if (resource instanceof Deployment deployment) {
                assertEquals(Boolean.FALSE, deployment.getSpec().getTemplate().getSpec()
                        .getAutomountServiceAccountToken(), deployment.getMetadata().getName());
            }
        }
        assertEquals(Boolean.FALSE, camelKPod().getAutomountServiceAccountToken());
        PodSpec demoPod = deployment(demo, "docs-assistant").getSpec().getTemplate().getSpec();
        for (PodSpec pod : List.of(demoPod, camelKPod())) {
            List<TopologySpreadConstraint> spread = pod.getTopologySpreadConstraints();
            assertEquals(List.of("kubernetes.io/hostname", "topology.kubernetes.io/zone"),
                    spread.stream().map(TopologySpreadConstraint::getTopologyKey).toList());
            assertTrue(spread.stream().allMatch(s -> "ScheduleAnyway".equals(s.getWhenUnsatisfiable())),
                    "a spread never leaves a replica Pending");
        }
        assertEquals(SERVICE_PODS, demoPod.getTopologySpreadConstraints().get(0).getLabelSelector().getMatchLabels());
    }

    @Test
    void theGatewayRouteSendsTheApiToTheServiceAndThePodMonitorScrapesTheManagementPort() {
        Manifests.Build gateway = manifests.build(K8S.resolve("gateway"));
        HTTPRoute route = (HTTPRoute) gateway.resources().get(0);
        Service service = (Service) demo.resources().stream()
                .filter(r -> r instanceof Service && r.getMetadata().getName().equals("docs-assistant"))
                .findFirst().orElseThrow();
        route.getSpec().getRules().forEach(rule -> rule.getBackendRefs().forEach(backend -> {
            assertEquals(service.getMetadata().getName(), backend.getName());
            assertEquals(service.getSpec().getPorts().get(0).getPort(), backend.getPort());
        }));
        assertTrue(route.getSpec().getRules().stream().flatMap(r -> r.getMatches().stream())
                .noneMatch(m -> m.getPath().getValue().startsWith("/observe")), "health and metrics stay inside");

        PodMonitor monitor = (PodMonitor) manifests.build(K8S.resolve("monitoring")).resources().stream()
                .filter(r -> r instanceof PodMonitor).findFirst().orElseThrow();
        assertEquals(SERVICE_PODS, monitor.getSpec().getSelector().getMatchLabels());
        List<String> ports = serviceContainer(demo).getPorts().stream().map(ContainerPort::getName).toList();
        assertTrue(ports.contains(monitor.getSpec().getPodMetricsEndpoints().get(0).getPort()), ports.toString());
        assertEquals("/observe/metrics", monitor.getSpec().getPodMetricsEndpoints().get(0).getPath());
        assertEquals(List.of(), manifests.problems);
    }

    /** kustomize refuses a Component under resources and a Kustomization under components: so does the check. */
    @Test
    void aComponentIsListedAsOneAndOnlyAsOne(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("overlay"));
        Files.writeString(dir.resolve("overlay/kustomization.yaml"), """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                  - %s
                components:
                  - %s
                """.formatted(K8S.resolve("components/redis").toAbsolutePath(), K8S.resolve("base").toAbsolutePath()));
        Manifests checked = new Manifests(Set.of());
        checked.build(dir.resolve("overlay"));
        assertEquals(2, checked.problems.stream().filter(p -> p.contains("where kustomize takes only")).count(),
                checked.problems.toString());
    }

    private static NetworkPolicy policy(Manifests.Build build, Map<String, String> pods) {
        return build.resources().stream().filter(r -> r instanceof NetworkPolicy p
                        && pods.equals(p.getSpec().getPodSelector().getMatchLabels()))
                .map(NetworkPolicy.class::cast).findFirst().orElseThrow(() -> new AssertionError("no policy for " + pods));
    }

    private static Map<String, NetworkPolicyIngressRule> byPort(NetworkPolicy policy) {
        return policy.getSpec().getIngress().stream().collect(java.util.stream.Collectors.toMap(
                rule -> rule.getPorts().get(0).getPort().getStrVal(), rule -> rule));
    }

    private static Deployment deployment(Manifests.Build build, String name) {
        return build.resources().stream().filter(r -> r instanceof Deployment && r.getMetadata().getName().equals(name))
                .map(Deployment.class::cast).findFirst().orElseThrow(() -> new AssertionError("no Deployment " + name));
    }

    private static PodSpec camelKPod() {
        Integration integration = (Integration) camelK.resources().stream().filter(r -> r instanceof Integration)
                .findFirst().orElseThrow();
        return new ObjectMapper().convertValue(integration.getSpec().getTemplate().getSpec(), PodSpec.class);
    }

    /** The service's container: the Deployment's in the demo, the pod template's in Camel K. */
    private static Container serviceContainer(Manifests.Build build) {
        return build == camelK ? camelKPod().getContainers().get(0)
                : deployment(build, "docs-assistant").getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    private static EnvVar env(Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " in " + container.getName()));
    }
}
