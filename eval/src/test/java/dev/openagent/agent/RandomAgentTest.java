package dev.openagent.agent;

import dev.openagent.registry.Environments;
import dev.openagent.episode.Trajectory;
import dev.openagent.metrics.Summary;
import dev.openagent.run.LocalRunner;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Split;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RandomAgentTest {
    @Test
    void fiveHundredRandomEpisodesRunWithoutACrashAndMakeToolErrors() {
        var plan = new TaskPlan(Split.TEST, 500, 1, 0);
        List<Trajectory> ts = LocalRunner.run(Environments.get("poi")::create, new RandomAgent(1), plan.requests(), 2);
        Summary s = Summary.of(ts);
        assertEquals(500, s.episodes());
        assertEquals(0, s.errors());
        assertTrue(s.toolErrorRate() > 0.1, "tool error rate " + s.toolErrorRate());
        assertTrue(s.successRate() < 0.05, "random rarely succeeds: " + s.successRate());
        var codes = ts.stream().flatMap(t -> t.stats().errorCodes().keySet().stream()).distinct().toList();
        for (String code : List.of("UNKNOWN_TOOL", "MALFORMED_ARGUMENTS", "INVALID_ARGUMENTS", "DOMAIN")) {
            assertTrue(codes.contains(code), "random agent provokes " + code + ": " + codes);
        }
    }

    @Test
    void runsAreReproducibleWhateverTheThreadCount() {
        var plan = new TaskPlan(Split.TEST, 40, 7, 0);
        List<String> one = LocalRunner.run(Environments.get("poi")::create, new RandomAgent(7), plan.requests(), 1)
                .stream().map(Trajectory::toJson).toList();
        List<String> two = LocalRunner.run(Environments.get("poi")::create, new RandomAgent(7), plan.requests(), 2)
                .stream().map(Trajectory::toJson).toList();
        assertEquals(one, two);
    }
}
