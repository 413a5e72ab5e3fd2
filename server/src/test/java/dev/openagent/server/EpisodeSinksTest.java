package dev.openagent.server;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EpisodeSinksTest {
    static final EnvChoice POI = EnvChoice.of(new Catalog(), "poi", "none");
    static final TaskChoice TASKS = new TaskChoice(Split.TEST, 0, 1);

    static FinishedEpisode oracleEpisode(int index) {
        Env env = POI.create();
        LiveEpisode e = new LiveEpisode(env, TASKS.byIndex(index), index);
        AgentSession oracle = new OracleAgent().begin(e.start(), env);
        Step last = null;
        while (last == null || !last.done()) last = e.step(oracle.act(last));
        return e.finished("test-agent");
    }

    @Test
    void jsonLinesHoldOneTrajectoryPerEpisode(@TempDir Path dir) throws Exception {
        try (JsonlEpisodeSink sink = new JsonlEpisodeSink(dir)) {
            sink.record(oracleEpisode(0));
            sink.record(oracleEpisode(1));
        }
        List<String> lines = Files.readAllLines(dir.resolve("trajectories.jsonl"), StandardCharsets.UTF_8);
        assertEquals(2, lines.size());
        for (String l : lines) {
            Trajectory t = Trajectory.fromJson(l);
            assertTrue(t.success());
            assertEquals("test-agent", t.agent());
        }
    }

    @Test
    void theResultsStoreGetsOneRunWithEveryEpisode(@TempDir Path dir) {
        Path file = dir.resolve("store.db");
        ObjectNode config = Json.object().put("server", "test");
        try (StoreEpisodeSink sink = new StoreEpisodeSink(ResultStore.open(file), true, "mcp-test-1", "a test run", config, POI.shifts())) {
            sink.record(oracleEpisode(0));
            sink.record(oracleEpisode(1));
            sink.record(oracleEpisode(0));   // the same task again: a second trial, not a replacement
        }
        try (ResultStore store = ResultStore.openExisting(file)) {
            assertEquals(RunStatus.COMPLETE, store.run("mcp-test-1").orElseThrow().status());
            List<EpisodeResult> episodes = store.episodes("mcp-test-1");
            assertEquals(3, episodes.size());
            for (EpisodeResult e : episodes) {
                assertTrue(e.success());
                assertEquals(EpisodeResult.STATIC, e.tier());
                assertEquals("none", e.shift());
                assertTrue(e.gold().calls() > 0, "gold facts recorded for the failure taxonomy");
            }
            assertEquals(List.of(0, 1), episodes.stream().filter(e -> e.taskIndex() == 0).map(e -> e.key().trial()).sorted().toList());
        }
    }
}
