package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeResult;
import dev.openagent.server.model.ModelServer;
import dev.openagent.store.ResultStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The done-when of serving a built-in policy: {@code openagent eval --agent openai} against
 * {@code serve model --policy DIR} scores the same as {@code --agent policy:DIR} on the same tasks,
 * episode by episode (same success, same messages), with a policy that solves some tasks and fails others.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ServeModelEvalTest {
    @TempDir
    Path dir;

    @Test
    void theOpenAiAgentThroughServeModelScoresAsThePolicyInProcess() throws Exception {
        // A tiny SFT policy: seeded training is bit-identical, so what it solves is fixed.
        Path checkpoint = TinyPolicy.checkpoint();
        Path store = dir.resolve("runs.db");
        String run;
        try (PolicyChatPolicy chat = PolicyChatPolicy.load(checkpoint, "tiny-sft");
             ModelServer server = ModelServer.start(chat, ModelServer.Config.loopback())) {
            CliTest.Result models = CliTest.run("eval", "--agent", "openai,policy:" + checkpoint, "--base-url", server.baseUrl(),
                    "--model", "tiny-sft", "--difficulty", "1", "--tasks", "12", "--shift", "obs.runtime-error",
                    "--store", store.toString(), "--no-progress", "--json");
            assertEquals(0, models.code(), models.err());
            JsonNode s = Json.parse(models.out());
            assertEquals(48, s.path("episodes").asInt(), "2 agents x 2 conditions x 12 tasks");
            assertEquals(0, s.path("errors").asInt());
            assertEquals(s.path("by_agent").path("openai:tiny-sft").path("success_rate"),
                    s.path("by_agent").path("policy:" + checkpoint).path("success_rate"), s.path("by_agent").toString());
            run = s.path("run").asText();
        }

        Map<String, EpisodeResult> served = new TreeMap<>(), local = new TreeMap<>();
        try (ResultStore results = ResultStore.openExisting(store)) {
            for (EpisodeResult e : results.episodes(run)) {
                (e.agent().startsWith("openai") ? served : local).put(e.shift() + " #" + e.taskIndex(), e);
            }
        }
        assertEquals(24, served.size());
        assertEquals(served.keySet(), local.keySet());
        int solved = 0, errors = 0;
        for (var entry : local.entrySet()) {
            EpisodeResult l = entry.getValue(), r = served.get(entry.getKey());
            assertNotNull(r, entry.getKey());
            assertEquals(l.success(), r.success(), entry.getKey());
            assertEquals(l.trajectory().messages(), r.trajectory().messages(), entry.getKey());
            if (l.success()) solved++;
            errors += r.trajectory().stats().toolErrors();
        }
        assertTrue(solved > 0 && solved < local.size(), "a comparison that means something: " + solved + " of " + local.size() + " solved");
        assertTrue(errors > 0, "transient tool errors went through the endpoint");
    }

    @Test
    void aDirectoryThatIsNotACheckpointIsRefused() {
        ServeCliTest.refused("not a policy checkpoint", "serve", "model", "--policy", dir.toString());
    }
}
