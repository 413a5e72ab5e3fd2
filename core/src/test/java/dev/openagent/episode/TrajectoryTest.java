package dev.openagent.episode;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrajectoryTest {
    private final Env env = Environments.get("poi").create();

    @Test
    void theSameRequestGivesByteIdenticalTrajectories() {
        for (long seed = 0; seed < 100; seed++) {
            TaskRequest r = new TaskRequest(Split.TEST, seed, 0);
            String a = Episodes.run(env, new OracleAgent(), r).toJson();
            String b = Episodes.run(Environments.get("poi").create(), new OracleAgent(), r).toJson();
            assertEquals(a, b);
        }
    }

    @Test
    void differentSeedsGiveDifferentTasks() {
        Set<String> queries = new HashSet<>();
        for (long seed = 0; seed < 200; seed++) queries.add(env.reset(new TaskRequest(Split.TEST, seed, 0)).query());
        assertTrue(queries.size() >= 195, "distinct queries: " + queries.size());
        assertNotEquals(env.reset(new TaskRequest(Split.TRAIN, 1, 3)).query(), env.reset(new TaskRequest(Split.TEST, 1, 3)).query());
    }

    @Test
    void aTrajectoryRoundTripsThroughJsonAndLooksLikeOpenAiChat() {
        Trajectory t = Episodes.run(env, new OracleAgent(), new TaskRequest(Split.TRAIN, 9, 3));
        Trajectory back = Trajectory.fromJson(t.toJson());
        assertEquals(t.toJson(), back.toJson());
        assertEquals("system", t.messages().get(0).role());
        assertEquals("user", t.messages().get(1).role());
        Message call = t.messages().get(2);
        assertEquals("assistant", call.role());
        assertEquals("function", call.toolCalls().getFirst().type());
        Message result = t.messages().get(3);
        assertEquals("tool", result.role());
        assertEquals(call.toolCalls().getFirst().id(), result.toolCallId());
        assertTrue(t.toJson().contains("\"tool_calls\""));
        assertTrue(t.toJson().contains("\"tool_call_id\""));
        assertEquals("assistant", t.messages().getLast().role());
        assertEquals(t.stats().turns(), t.messages().stream().filter(m -> m.role().equals("assistant")).count());
    }
}
