package dev.openagent.server.env;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.server.EnvChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The shipped Python client (clients/python/openagent_env.py, on OpenEnv's message models)
 * completes oracle episodes over the WebSocket and over the HTTP routes on every built-in
 * environment under several shift stacks with reward 1, every server message validated against
 * OpenEnv's models and this server's observation and state shapes, and every client message
 * against OpenEnv's models before it goes. The models are upstream's own types.py when the
 * peer copy is there ({@value #PEER}, beside the repository as CI has it; required under CI),
 * else the client's restatement; with the peer file, the restatement is also compared with it
 * field by field. Needs python3 with pydantic 2 and websockets (.ci/run installs Debian's
 * python3-websockets); skipped without them, except under CI.
 */
class PythonClientTest {
    static final Path CLIENT = Path.of("..", "clients", "python", "openagent_env.py");
    static final Path MODELS = CLIENT.resolveSibling("openenv_models.py");
    /** OpenEnv's types.py as published upstream (with its licence and SOURCE.md), relative to the repository root. */
    static final String PEER = "../shared/peers/openenv";
    static final Path PEER_TYPES = Path.of("..", PEER, "types.py");
    /** Shift stacks tried on every environment; each environment gets those that apply to it. */
    static final List<String> SHIFTS = List.of("none", "tool.semantic-rename", "obs.format:format=xml", "query.paraphrase",
            "tool.identity-erasure+obs.pagination", "task.unsolvable");

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void pythonClientOnOpenEnvModelsCompletesOracleEpisodesEverywhereWithRewardOne() throws Exception {
        requirePython();
        assertTrue(Files.isRegularFile(CLIENT), "client not found at " + CLIENT.toAbsolutePath());
        boolean upstream = peerTypes();
        List<String> command = new ArrayList<>(List.of("python3", CLIENT.toString(), "--episodes", "2", "--http-episodes", "1"));
        int conditions = 0;
        for (String env : Environments.ids()) {
            for (String shift : SHIFTS) {
                if (!applies(env, shift)) continue;
                command.add("--condition");
                command.add(env + ":" + shift);
                conditions++;
            }
        }
        try (EnvServer server = EnvServer.start(EnvServer.Config.loopback(true))) {
            command.add("--url");
            command.add(server.baseUrl());
            String out = python(command, upstream);
            List<JsonNode> lines = out.lines().filter(l -> l.startsWith("{")).map(Json::parse).toList();
            assertEquals(conditions * 3 + 1, lines.size(), out);
            List<JsonNode> episodes = lines.subList(0, lines.size() - 1);
            for (JsonNode episode : episodes) {
                assertEquals(1.0, episode.get("reward").asDouble(), out);
                assertTrue(episode.get("outcome").get("success").asBoolean(), out);
                assertTrue(episode.get("state_done").asBoolean(), out);
            }
            assertEquals(conditions, episodes.stream().filter(e -> e.get("transport").asText().equals("http")).count(), "an HTTP episode per condition");
            JsonNode summary = lines.getLast();
            assertEquals(1.0, summary.get("mean_reward").asDouble(), out);
            // per episode at least a reset, a step and a state answer; per WebSocket episode a reset and a step sent
            assertTrue(summary.get("validated_messages").asInt() > conditions * 3 * 3, out);
            assertTrue(summary.get("sent_messages").asInt() > conditions * 3 * 2, out);
            assertEquals(1, summary.get("errors_checked").asInt(), out);
            String models = summary.get("models").asText();
            if (upstream) assertEquals("OpenEnv's " + PEER_TYPES.toAbsolutePath().normalize(), models, out);
            else assertTrue(models.startsWith("restated"), out);
            EnvSocketTest.awaitSessions(server, 0);
        }
    }

    /** The client's restatement of OpenEnv's models (its fallback) agrees with upstream's types.py field by field. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theRestatedModelsAreUpstreamsFieldByField() throws Exception {
        requirePython();
        assumeTrue(peerTypes(), "no copy of OpenEnv's types.py at " + PEER_TYPES.toAbsolutePath().normalize() + ": nothing to compare with");
        String out = python(List.of("python3", MODELS.toString(), "--compare"), true);
        assertTrue(out.contains("0 difference(s) between the restatement and "), out);
    }

    /**
     * The OpenAPI document's request and response schemas name OpenEnv's models and carry their fields: every field
     * upstream declares, and no other where upstream's model forbids extra fields (ours add some where it allows them,
     * as reset and state do).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theOpenApiDocumentDeclaresOpenEnvsModelsForEachRoute() throws Exception {
        requirePython();
        assumeTrue(peerTypes(), "no copy of OpenEnv's types.py at " + PEER_TYPES.toAbsolutePath().normalize() + ": nothing to compare with");
        Path doc = Files.createTempFile("openapi", ".json");
        try (EnvServer server = EnvServer.start(EnvServer.Config.loopback(false))) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/openapi.json")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            Files.writeString(doc, r.body());
            String check = String.join("\n",
                    "import json, sys",
                    "sys.path.insert(0, sys.argv[1])",
                    "import openenv_models",
                    "models = openenv_models.load()",
                    "doc = json.load(open(sys.argv[2]))",
                    "schemas = doc['components']['schemas']",
                    "used = {}",
                    "for path, ops in doc['paths'].items():",
                    "    for method, op in ops.items():",
                    "        body = op.get('requestBody', {}).get('content', {}).get('application/json', {}).get('schema', {}).get('$ref')",
                    "        answer = op['responses']['200'].get('content', {}).get('application/json', {}).get('schema', {}).get('$ref')",
                    "        if body: used[body.split('/')[-1]] = 'request'",
                    "        if answer: used[answer.split('/')[-1]] = 'response'",
                    "for name, role in sorted(used.items()):",
                    "    theirs = set(getattr(models, name).model_fields)",
                    "    ours = set(schemas[name].get('properties', {}))",
                    "    extra = getattr(models, name).model_config.get('extra') == 'allow'",
                    "    ok = theirs <= ours if extra else theirs == ours",
                    "    print(('ok ' if ok else 'MISMATCH ') + name + ' ' + role + ' upstream=' + str(sorted(theirs)) + ' ours=' + str(sorted(ours)))");
            String out = python(List.of("python3", "-c", check, MODELS.getParent().toString(), doc.toString()), true);
            assertFalse(out.contains("MISMATCH"), out);
            for (String model : List.of("HealthResponse", "EnvironmentMetadata", "SchemaResponse", "State", "ResetRequest", "ResetResponse",
                    "StepRequest", "StepResponse")) {
                assertTrue(out.contains("ok " + model + " "), model + " is not the schema of any route:\n" + out);
            }
        } finally {
            Files.deleteIfExists(doc);
        }
    }

    /** Whether upstream's types.py is beside the repository; CI has it, so there its absence fails. */
    private static boolean peerTypes() {
        boolean present = Files.isRegularFile(PEER_TYPES);
        if (CI) assertTrue(present, "CI has OpenEnv's types.py at " + PEER_TYPES.toAbsolutePath().normalize());
        return present;
    }

    private static final boolean CI = "true".equals(System.getenv("CI"));

    private static void requirePython() {
        boolean ready = pythonReady();
        if (CI) assertTrue(ready, "CI needs python3 with pydantic 2 and websockets (.ci/run installs them)");
        assumeTrue(ready, "python3 with pydantic 2 and websockets is not available: skipping the Python client test");
    }

    /** Runs a Python command to its end (exit 0 required) and returns its output; with {@code upstream}, on upstream's types.py. */
    private static String python(List<String> command, boolean upstream) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (upstream) pb.environment().put("OPENENV_SRC", PEER_TYPES.getParent().toAbsolutePath().normalize().toString());
        else pb.environment().remove("OPENENV_SRC");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), "the Python command did not finish: " + command);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private static boolean applies(String env, String shift) {
        try {
            EnvChoice.of(new Catalog(), env, shift);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** python3 with pydantic 2 and websockets (Debian's package is found where the client looks for it). */
    private static boolean pythonReady() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import sys; sys.path.append('/usr/lib/python3/dist-packages'); "
                    + "import pydantic, websockets; assert pydantic.VERSION.startswith('2')").redirectErrorStream(true).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
