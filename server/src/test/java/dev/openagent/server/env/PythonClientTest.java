package dev.openagent.server.env;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.server.EnvChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The shipped Python client (clients/python/openagent_env.py, on OpenEnv's message models)
 * completes oracle episodes over the WebSocket on every built-in environment under several shift
 * stacks with reward 1, every server message validated against OpenEnv's models and this
 * server's observation and state shapes. Needs python3 with pydantic 2 and websockets
 * (.ci/run installs Debian's python3-websockets); skipped without them, except under CI.
 */
class PythonClientTest {
    static final Path CLIENT = Path.of("..", "clients", "python", "openagent_env.py");
    /** Shift stacks tried on every environment; each environment gets those that apply to it. */
    static final List<String> SHIFTS = List.of("none", "tool.semantic-rename", "obs.format:format=xml", "query.paraphrase",
            "tool.identity-erasure+obs.pagination", "task.unsolvable");

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void pythonClientOnOpenEnvModelsCompletesOracleEpisodesEverywhereWithRewardOne() throws Exception {
        boolean ready = pythonReady();
        if ("true".equals(System.getenv("CI"))) assertTrue(ready, "CI needs python3 with pydantic 2 and websockets (.ci/run installs them)");
        assumeTrue(ready, "python3 with pydantic 2 and websockets is not available: skipping the Python client test");
        assertTrue(Files.isRegularFile(CLIENT), "client not found at " + CLIENT.toAbsolutePath());
        List<String> command = new ArrayList<>(List.of("python3", CLIENT.toString(), "--episodes", "2"));
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
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(240, TimeUnit.SECONDS), "the Python client did not finish");
            assertEquals(0, p.exitValue(), out);
            List<JsonNode> lines = out.lines().filter(l -> l.startsWith("{")).map(Json::parse).toList();
            assertEquals(conditions * 2 + 1, lines.size(), out);
            for (JsonNode episode : lines.subList(0, lines.size() - 1)) {
                assertEquals(1.0, episode.get("reward").asDouble(), out);
                assertTrue(episode.get("outcome").get("success").asBoolean(), out);
                assertTrue(episode.get("state_done").asBoolean(), out);
            }
            JsonNode summary = lines.getLast();
            assertEquals(1.0, summary.get("mean_reward").asDouble(), out);
            assertTrue(summary.get("validated_messages").asInt() > conditions * 2 * 3, out);
            EnvSocketTest.awaitSessions(server, 0);
        }
    }

    private static boolean applies(String env, String shift) {
        try {
            EnvChoice.of(env, shift);
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
