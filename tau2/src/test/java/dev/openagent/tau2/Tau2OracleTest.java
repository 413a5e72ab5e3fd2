package dev.openagent.tau2;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Tau2OracleTest {
    @Test
    void theOracleSolvesEveryTaskOfBothSplitsWithTheGoldDatabase() {
        Tau2Retail env = Checkouts.retail();
        List<String> failures = new ArrayList<>();
        int episodes = 0;
        for (Split split : Split.values()) {
            for (int i = 0; i < env.tasks(split); i++) {
                Trajectory t = Episodes.run(env.create(), new OracleAgent(), new TaskRequest(split, i, 0));
                episodes++;
                Tau2Retail.Gold g = env.gold(t.taskId().substring(t.taskId().lastIndexOf('/') + 1));
                if (!t.success()) failures.add(t.taskId() + ": " + t.outcome().detail());
                else if (!Json.write(t.dbChanges()).equals(Json.write(g.changes().json()))) failures.add(t.taskId() + ": db_changes differ from the gold replay");
            }
        }
        assertEquals(114, episodes);
        // tau2 itself rejects 18 of its 550 gold actions (they change nothing); the oracle's plans leave them out.
        assertEquals(550, env.tasks().values().stream().mapToInt(g -> g.ok().size()).sum());
        assertEquals(18, env.tasks().values().stream().mapToLong(g -> g.ok().stream().filter(ok -> !ok).count()).sum());
        assertTrue(failures.isEmpty(), failures.size() + " failed: " + String.join("\n", failures));
    }
}
