package dev.openagent.shift;

import dev.openagent.envs.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shifts bite: an agent that replays the static tool names and parses the static JSON results
 * solves every static task and fails under the shifts that move names, formats and call order.
 */
class ShiftsBiteTest {
    static final int N = 120;

    private static int successes(String spec, int difficulty) {
        Env env = ShiftSpec.expand(spec).getFirst().apply(Environments.get("poi").create());
        StaticReplayAgent agent = new StaticReplayAgent();
        int ok = 0;
        for (int i = 0; i < N; i++) {
            Trajectory t = Episodes.run(env, agent, new TaskRequest(i % 2 == 0 ? Split.TEST : Split.TRAIN, 300 + i, difficulty));
            if (t.success()) ok++;
        }
        return ok;
    }

    @Test
    void theReplayAgentSolvesTheStaticEnvironment() {
        assertEquals(N, successes("none", 0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"tool.identity-erasure", "tool.semantic-trap", "tool.name-noise", "tool.name-noise:severity=1", "obs.format",
            "obs.format:format=yaml,severity=1"})
    void theReplayAgentFailsEveryTaskUnderNameAndFormatShifts(String spec) {
        assertEquals(0, successes(spec, 0), spec);
    }

    @Test
    void theReplayAgentFailsEveryBookingUnderLogicInversion() {
        Env env = ShiftSpec.parseStack("logic.inversion").apply(Environments.get("poi").create());
        StaticReplayAgent agent = new StaticReplayAgent();
        int bookings = 0;
        for (int i = 0; i < N; i++) {
            Trajectory t = Episodes.run(env, agent, new TaskRequest(Split.TEST, 500 + i, i % 2 == 0 ? 3 : 4));
            if (!t.kind().contains("booking") && !t.kind().equals("book_table")) continue;
            bookings++;
            assertTrue(!t.success(), "the static call order fails under logic.inversion: " + t.taskId());
        }
        assertTrue(bookings > N / 3, "enough booking tasks were tried: " + bookings);
    }
}
