package dev.openagent.envs.poi;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class PoiOracleTest {
    @Test
    void oracleSolvesEveryTaskOfEverySplitAndDifficulty() {
        Env env = Environments.get("poi").create();
        OracleAgent oracle = new OracleAgent();
        Map<String, Integer> kinds = new HashMap<>();
        for (Split split : Split.values()) {
            for (int d = 0; d <= 4; d++) {
                for (long seed = 0; seed < 300; seed++) {
                    Trajectory t = Episodes.run(env, oracle, new TaskRequest(split, seed, d));
                    if (!t.success()) {
                        fail("oracle failed " + t.taskId() + " (" + t.kind() + "): " + t.outcome() + "\n" + t.toJson());
                    }
                    assertEquals(0, t.stats().toolErrors(), "oracle made a tool error on " + t.taskId());
                    kinds.merge(t.kind(), 1, Integer::sum);
                }
            }
        }
        assertEquals(9, kinds.size(), "every task kind is generated: " + kinds);
        kinds.values().forEach(n -> assertTrue(n > 50, "kinds are balanced: " + kinds));
    }
}
