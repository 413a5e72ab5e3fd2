package dev.openagent.agent;

import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The random baseline runs on every environment without crashing, and (almost) never succeeds by luck. */
class RandomAgentOnEveryEnvironmentTest {
    static List<String> ids() { return Environments.ids(); }

    @ParameterizedTest
    @MethodSource("ids")
    void randomAgentRunsWithoutCrashing(String id) {
        Env env = Environments.get(id).create();
        RandomAgent agent = new RandomAgent(3);
        int successes = 0;
        int errors = 0;
        for (long seed = 0; seed < 200; seed++) {
            Trajectory t = Episodes.run(env, agent, new TaskRequest(seed % 2 == 0 ? Split.TRAIN : Split.TEST, seed, 0));
            assertNotNull(t.outcome());
            if (t.success()) successes++;
            errors += t.stats().toolErrors();
        }
        assertTrue(successes <= 4, id + ": success cannot be guessed (" + successes + " of 200)");
        assertTrue(errors > 0, id + ": the random agent's bad input shows up as errors");
    }
}
