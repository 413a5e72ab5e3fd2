package dev.openagent.junit;

import dev.openagent.json.Json;
import dev.openagent.registry.Catalog;
import dev.openagent.run.EvalAgent;
import dev.openagent.run.EvalRunner;
import dev.openagent.run.Experiment;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a robustness test runs: the conditions (the environment without shifts and under each
 * shift of the spec that applies to it) and the tasks, read from {@link AgentRobustness}.
 *
 * @param notApplicable the spec's shifts left out because they do not apply to the environment, with why
 */
record RobustnessPlan(Experiment experiment, List<EvalRunner.Condition> conditions, List<TaskRequest> tasks, List<String> notApplicable) {

    /** @throws IllegalArgumentException with a one-line reason when the annotation asks for something that cannot run */
    static RobustnessPlan of(Catalog catalog, AgentRobustness a) {
        if (a.tasks() < 1) throw new IllegalArgumentException("tasks must be at least 1 (got " + a.tasks() + ")");
        Experiment exp = new Experiment(null, List.of(), List.of(a.env()), List.of(a.shift()), a.tasks(), a.trials(), a.seed(),
                a.split(), a.difficulty(), a.concurrency(), null);
        List<String> notApplicable = new ArrayList<>();
        List<EvalRunner.Condition> conditions = EvalRunner.conditions(catalog, exp, notApplicable);
        boolean asksForShifts = !a.shift().strip().equals("none") && !a.shift().strip().equals("static");
        if (asksForShifts && conditions.stream().allMatch(c -> c.stack().isStatic())) {
            throw new IllegalArgumentException("no shift of '" + a.shift() + "' applies to " + a.env() + ": " + String.join("; ", notApplicable));
        }
        List<TaskRequest> tasks = new TaskPlan(exp.splitValue(), exp.tasks(), exp.seed(), exp.difficulty()).requests();
        return new RobustnessPlan(exp, conditions, tasks, notApplicable);
    }

    String env() { return experiment.envs().getFirst(); }

    String shiftSpec() { return experiment.shiftSpec(); }

    /** The run as the report's header shows it (as the eval runner describes an experiment). */
    String describe(String agent) {
        Map<String, Object> d = EvalRunner.describe(experiment, List.of(new EvalAgent(agent, Map.of(), trial -> null)));
        d.put("name", agent + " robustness");
        return Json.write(d);
    }
}
