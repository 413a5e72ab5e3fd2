package dev.openagent.frontier;

import dev.openagent.results.EpisodeKey;
import dev.openagent.run.EvalAgent;
import dev.openagent.run.EvalRunner;
import dev.openagent.run.Experiment;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;
import dev.openagent.store.ResultStore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the frontier's episodes as {@code eval} runs its own: through {@link EvalRunner#runPlanned} into one run of
 * the results store, with eval's episode identities (the same agent, environment, condition, task and seed is the
 * same episode, whichever command ran it), so an episode the store holds finished is reused, never run again.
 * An episode that ended in an infrastructure error is run again, up to {@link #PASSES} passes per round; one that
 * still has no score is left out, which stops the search (a rerun continues it).
 */
final class StoreRunner implements FrontierSearch.Runner {
    /** Passes over a round's unscored episodes before the round counts as incomplete. */
    static final int PASSES = 3;

    private final ResultStore store;
    private final EvalRunner runner;
    private final String runId;
    private final EvalAgent agent;
    private final String configHash;
    private final Map<String, Environment> environments;
    private final List<TaskRequest> tasks;
    private final int concurrency;
    private Throwable internalError;

    /** @param exp the frontier as an experiment: its agent, split, seed, difficulty, concurrency, and tasks (the cap per test) */
    StoreRunner(ResultStore store, EvalRunner runner, String runId, EvalAgent agent, Experiment exp, Map<String, Environment> environments) {
        this.store = store;
        this.runner = runner;
        this.runId = runId;
        this.agent = agent;
        this.configHash = EvalRunner.configHash(agent, exp);
        this.environments = Map.copyOf(environments);
        this.tasks = new TaskPlan(exp.splitValue(), exp.tasks(), exp.seed(), exp.difficulty()).requests();
        this.concurrency = exp.concurrency();
    }

    /** The store's id of a cell's episode. */
    String episodeId(FrontierSearch.Cell c) { return key(c).id(); }

    /** The first exception thrown inside an episode (a bug, recorded as an error), or null. */
    Throwable internalError() { return internalError; }

    private EpisodeKey key(FrontierSearch.Cell c) {
        return new EpisodeKey(configHash, agent.label(), c.env(), c.stack().label(), tasks.get(c.task()).seed(), 0);
    }

    @Override
    public FrontierSearch.Outcomes run(List<FrontierSearch.Cell> cells) {
        Map<String, FrontierSearch.Cell> byId = new LinkedHashMap<>();
        List<EvalRunner.Planned> todo = new ArrayList<>();
        for (FrontierSearch.Cell c : cells) {
            EpisodeKey key = key(c);
            if (byId.putIfAbsent(key.id(), c) != null) continue;
            EvalRunner.Condition condition = EvalRunner.Condition.of(c.env(), environments.get(c.env()), c.stack());
            todo.add(new EvalRunner.Planned(key, agent, condition, c.task(), tasks.get(c.task())));
        }
        Map<FrontierSearch.Cell, Boolean> success = new LinkedHashMap<>();
        String stopReason = null;
        for (int pass = 1; pass <= PASSES && !todo.isEmpty(); pass++) {
            EvalRunner.Batch batch = runner.runPlanned(runId, todo, concurrency);
            if (internalError == null) internalError = batch.internalError();
            Map<String, Outcome> outcomes = store.outcomes(runId);
            List<EvalRunner.Planned> left = new ArrayList<>();
            for (EvalRunner.Planned p : todo) {
                Outcome o = outcomes.get(p.key().id());
                if (o != null && o.end() != Outcome.End.INFRA_ERROR && o.end() != Outcome.End.UNSCORED) success.put(byId.get(p.key().id()), o.success());
                else left.add(p);
            }
            todo = left;
            if (batch.stopReason() != null) {
                stopReason = batch.stopReason();
                break;
            }
        }
        if (stopReason == null && !todo.isEmpty()) {
            stopReason = todo.size() + " episode" + (todo.size() == 1 ? "" : "s") + " still had no score after " + PASSES
                    + " passes (infrastructure errors; the last: " + lastError(todo) + ")";
        }
        return new FrontierSearch.Outcomes(success, stopReason);
    }

    private String lastError(List<EvalRunner.Planned> left) {
        Outcome o = store.outcomes(runId).get(left.getLast().key().id());
        return o == null || o.detail() == null ? "not run" : o.detail();
    }
}
