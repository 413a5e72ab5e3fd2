package dev.openagent.server.view;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Catalog;
import dev.openagent.agent.RandomAgent;
import dev.openagent.run.EvalAgent;
import dev.openagent.run.EvalRunner;
import dev.openagent.run.Experiment;
import dev.openagent.run.Progress;
import dev.openagent.run.RunControl;
import dev.openagent.store.ResultStore;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Stores written the way `openagent eval` writes them: real episodes of the oracle and the random agent in poi. */
final class ViewFixtures {
    private ViewFixtures() {}

    static final String SHIFT = "tool.semantic-rename";

    static List<EvalAgent> agents() {
        return List.of(new EvalAgent("oracle", Map.of("kind", "oracle"), trial -> new OracleAgent()),
                new EvalAgent("random", Map.of("kind", "random"), trial -> new RandomAgent(7 + trial)));
    }

    static Experiment experiment(int tasks) {
        return new Experiment("view-test", List.of(dev.openagent.run.AgentSpec.of("oracle"), dev.openagent.run.AgentSpec.of("random")), List.of("poi"), List.of(SHIFT), tasks, 1, 3L, "test", 0, 2, Experiment.Budget.NONE);
    }

    /** Runs the experiment into the store at {@code file}; the run's id. */
    static String evalInto(Path file, int tasks) {
        try (ResultStore store = ResultStore.open(file)) {
            return new EvalRunner(new Catalog(), store, RunControl.unlimited(), Progress.NONE).run(experiment(tasks), agents()).runId();
        }
    }
}
