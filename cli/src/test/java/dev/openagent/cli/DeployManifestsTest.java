package dev.openagent.cli;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.openagent.run.Experiment;
import dev.openagent.server.env.EnvServer;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.store.StoreLocation;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1PodFailurePolicyRule;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Probe;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * deploy/kubernetes/ as Kubernetes reads it: every document is parsed into the official Java
 * client's object model (which refuses unknown fields and missing required ones), and what
 * docs/scale-out.md relies on is checked across the objects: the Job's shard count and index,
 * its store and password, the commands' flags as the CLI parses them, probes on a route the
 * server really answers, and the Service, autoscaler and network policy aimed at the pods.
 */
class DeployManifestsTest {
    static final Path DIR = Path.of("..", "deploy", "kubernetes");

    /** The kinds the manifests may hold, as the client's model classes. */
    static final Map<String, Class<?>> KINDS = Map.of(
            "batch/v1 Job", V1Job.class,
            "apps/v1 Deployment", V1Deployment.class,
            "apps/v1 StatefulSet", V1StatefulSet.class,
            "v1 Service", V1Service.class,
            "v1 ConfigMap", V1ConfigMap.class,
            "autoscaling/v2 HorizontalPodAutoscaler", V2HorizontalPodAutoscaler.class,
            "networking.k8s.io/v1 NetworkPolicy", V1NetworkPolicy.class);

    @TempDir
    Path tmp;

    /** Every document of every manifest, parsed into its model class. */
    static List<Object> objects() throws IOException {
        List<Object> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                try (MappingIterator<JsonNode> docs = new YAMLMapper().readerFor(JsonNode.class).readValues(f.toFile())) {
                    while (docs.hasNext()) {
                        JsonNode doc = docs.next();
                        if (doc == null || doc.isNull() || doc.isEmpty()) continue;
                        out.add(parse(f.getFileName() + "", doc));
                    }
                }
            }
        }
        return out;
    }

    static Object parse(String file, JsonNode doc) {
        String kind = doc.path("apiVersion").asText() + " " + doc.path("kind").asText();
        Class<?> type = KINDS.get(kind);
        assertNotNull(type, file + ": unexpected kind " + kind);
        return JSON.deserialize(doc.toString(), type);
    }

    static <T> List<T> all(List<Object> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    static <T> T one(List<Object> objects, Class<T> type) {
        List<T> found = all(objects, type);
        assertEquals(1, found.size(), "one " + type.getSimpleName());
        return found.getFirst();
    }

    /** The command line a container runs, as the openagent CLI parses it (unknown flags fail). */
    static ParseResult parseArgs(V1Container c) {
        return new CommandLine(new Main(new Catalog())).parseArgs(c.getArgs().toArray(String[]::new));
    }

    @Test
    void theModelRefusesAMisspelledField() {
        // What makes the other checks mean something: a typo in a field is an error, not a dropped setting.
        JsonNode job = new YAMLMapper().createObjectNode().put("apiVersion", "batch/v1").put("kind", "Job")
                .set("spec", new YAMLMapper().createObjectNode().put("completionMod", "Indexed"));
        assertThrows(IllegalArgumentException.class, () -> parse("typo", job));
    }

    @Test
    void theIndexedJobRunsOneShardPerIndexIntoPostgresWithThePasswordFromASecret() throws Exception {
        List<Object> objects = objects();
        V1Job job = one(objects, V1Job.class);
        V1JobSpec spec = job.getSpec();
        assertEquals("Indexed", spec.getCompletionMode(), "JOB_COMPLETION_INDEX is only set in Indexed Jobs");
        V1PodSpec pod = spec.getTemplate().getSpec();
        assertEquals("Never", pod.getRestartPolicy(), "podFailurePolicy and per-index retries need restartPolicy Never");
        V1Container eval = pod.getContainers().getFirst();
        ParseResult cli = parseArgs(eval);
        assertEquals("eval", cli.subcommand().commandSpec().name());
        ParseResult evalArgs = cli.subcommand();
        assertFalse(evalArgs.hasMatchedOption("--shard"), "the index must come from JOB_COMPLETION_INDEX");
        int shards = evalArgs.matchedOptionValue("--shards", 0);
        assertEquals(spec.getCompletions(), shards, "--shards is the Job's completions");
        assertEquals(spec.getParallelism(), shards, "every shard runs at once");

        // The store: PostgreSQL at the database Service, the password from a Secret.
        String store = evalArgs.matchedOptionValue("--store", "");
        StoreLocation.Postgres pg = assertInstanceOf(StoreLocation.Postgres.class, StoreLocation.parse(store, null));
        V1Service db = all(objects, V1Service.class).stream().filter(s -> s.getMetadata().getName().equals(pg.host())).findFirst()
                .orElseThrow(() -> new AssertionError("no Service named " + pg.host()));
        assertEquals(pg.port(), db.getSpec().getPorts().getFirst().getPort());
        V1EnvVar password = eval.getEnv().stream().filter(e -> e.getName().equals(StoreLocation.DEFAULT_PASSWORD_ENV)).findFirst().orElseThrow();
        assertNull(password.getValue(), "the password is not written in the manifest");
        String secret = password.getValueFrom().getSecretKeyRef().getName();
        V1StatefulSet postgres = one(objects, V1StatefulSet.class);
        assertTrue(postgres.getSpec().getTemplate().getSpec().getContainers().getFirst().getEnv().stream()
                .anyMatch(e -> e.getValueFrom() != null && secret.equals(e.getValueFrom().getSecretKeyRef().getName())), "the database uses the same Secret");
        assertEquals(postgres.getSpec().getTemplate().getMetadata().getLabels(), db.getSpec().getSelector());

        // The experiment: mounted from the ConfigMap, and a valid experiment file.
        String config = evalArgs.matchedOptionValue("--config", Path.of("")).toString();
        V1VolumeMount mount = eval.getVolumeMounts().stream().filter(m -> config.startsWith(m.getMountPath() + "/")).findFirst().orElseThrow();
        V1Volume volume = pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst().orElseThrow();
        V1ConfigMap map = all(objects, V1ConfigMap.class).stream()
                .filter(m -> m.getMetadata().getName().equals(volume.getConfigMap().getName())).findFirst().orElseThrow();
        String key = config.substring(mount.getMountPath().length() + 1);
        Path file = tmp.resolve(key);
        Files.writeString(file, map.getData().get(key));
        Experiment experiment = Experiment.read(file);
        assertFalse(experiment.agents().isEmpty());

        // Bad input (exit code 2) fails the Job at once; an incomplete shard (exit code 3) is retried on its index.
        V1PodFailurePolicyRule rule = spec.getPodFailurePolicy().getRules().getFirst();
        assertEquals("FailJob", rule.getAction());
        assertEquals(eval.getName(), rule.getOnExitCodes().getContainerName());
        assertEquals(List.of(2), rule.getOnExitCodes().getValues());
        assertFalse(rule.getOnExitCodes().getValues().contains(EvalCommand.INCOMPLETE));
        assertTrue(spec.getBackoffLimitPerIndex() > 0);
    }

    @Test
    void envServerReplicasAreReadyOnHealthBehindAServiceAnAutoscalerAndAPolicyThatSelectThem() throws Exception {
        List<Object> objects = objects();
        V1Deployment deployment = one(objects, V1Deployment.class);
        Map<String, String> labels = deployment.getSpec().getTemplate().getMetadata().getLabels();
        assertEquals(deployment.getSpec().getSelector().getMatchLabels(), labels);
        V1Container server = deployment.getSpec().getTemplate().getSpec().getContainers().getFirst();
        ParseResult cli = parseArgs(server);
        assertEquals("serve", cli.subcommand().commandSpec().name());
        ParseResult env = cli.subcommand().subcommand();
        assertEquals("env", env.commandSpec().name());
        assertEquals("0.0.0.0", env.matchedOptionValue("--host", ""), "reachable from other pods");
        int port = env.matchedOptionValue("--port", -1);
        V1ContainerPort containerPort = server.getPorts().getFirst();
        assertEquals(port, containerPort.getContainerPort());

        // The token from a Secret, never on the command line.
        String tokenVar = env.matchedOptionValue("--token-env", "");
        V1EnvVar token = server.getEnv().stream().filter(e -> e.getName().equals(tokenVar)).findFirst().orElseThrow();
        assertNotNull(token.getValueFrom().getSecretKeyRef().getName());

        // Readiness and liveness on /health, at the port the server listens on, answered without a
        // token (probes send none) by a real server that requires one.
        for (V1Probe probe : List.of(server.getReadinessProbe(), server.getLivenessProbe())) {
            assertEquals(new IntOrString(containerPort.getName()), probe.getHttpGet().getPort());
            EnvServer.Config d = EnvServer.Config.loopback(false);
            try (EnvServer running = EnvServer.start(new EnvServer.Config(d.host(), 0, BearerAuth.of("a-token"), d.maxSessions(),
                    d.idleTtl(), d.maxBodyBytes(), false, d.defaults(), d.catalog()))) {
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + running.port() + probe.getHttpGet().getPath())).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
            }
        }

        V1Service service = all(objects, V1Service.class).stream().filter(s -> s.getMetadata().getName().equals(deployment.getMetadata().getName()))
                .findFirst().orElseThrow();
        assertEquals(labels, service.getSpec().getSelector());
        assertEquals(new IntOrString(containerPort.getName()), service.getSpec().getPorts().getFirst().getTargetPort());
        assertNull(service.getSpec().getSessionAffinity(), "a WebSocket session is one connection: no affinity needed");

        V2HorizontalPodAutoscaler hpa = one(objects, V2HorizontalPodAutoscaler.class);
        assertEquals("Deployment", hpa.getSpec().getScaleTargetRef().getKind());
        assertEquals(deployment.getMetadata().getName(), hpa.getSpec().getScaleTargetRef().getName());
        assertTrue(hpa.getSpec().getMinReplicas() <= deployment.getSpec().getReplicas());

        V1NetworkPolicy policy = one(objects, V1NetworkPolicy.class);
        assertEquals(labels, policy.getSpec().getPodSelector().getMatchLabels());
        assertEquals(new IntOrString(containerPort.getName()), policy.getSpec().getIngress().getFirst().getPorts().getFirst().getPort());
    }
}
