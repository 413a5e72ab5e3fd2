package dev.openagent.server.env;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The shipped standard-library Python client (clients/python/openagent_env_client.py) completes
 * episodes against a live `serve env` with the oracle's actions and gets reward 1 on each.
 */
class PythonClientTest {
    static final Path CLIENT = Path.of("..", "clients", "python", "openagent_env_client.py");

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void pythonClientCompletesOracleEpisodesWithRewardOne() throws Exception {
        assumeTrue(python3Present(), "python3 is not installed: skipping the Python client test");
        assertTrue(Files.isRegularFile(CLIENT), "client not found at " + CLIENT.toAbsolutePath());
        try (EnvServer server = EnvServer.start(EnvServer.Config.loopback(true))) {
            Process p = new ProcessBuilder("python3", CLIENT.toString(), "--url", server.baseUrl(), "--env", "poi",
                    "--split", "train", "--episodes", "5").redirectErrorStream(true).start();
            p.getOutputStream().close();
            assertTrue(p.waitFor(150, TimeUnit.SECONDS), "the Python client did not finish");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), out);
            List<JsonNode> lines = out.lines().filter(l -> l.startsWith("{")).map(Json::parse).toList();
            assertEquals(6, lines.size(), out);
            for (JsonNode episode : lines.subList(0, 5)) {
                assertEquals(1.0, episode.get("reward").asDouble(), out);
                assertTrue(episode.get("outcome").get("success").asBoolean(), out);
            }
            assertEquals(1.0, lines.get(5).get("mean_reward").asDouble(), out);
            assertEquals(0, server.sessionCount(), "the client closes its session");
        }
    }

    private static boolean python3Present() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
