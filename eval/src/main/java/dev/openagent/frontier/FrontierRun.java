package dev.openagent.frontier;

import dev.openagent.UserInputException;
import dev.openagent.json.Json;
import dev.openagent.registry.Catalog;
import dev.openagent.run.Conditions;
import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.run.EvalAgent;
import dev.openagent.run.EvalRunner;
import dev.openagent.run.Experiment;
import dev.openagent.run.Progress;
import dev.openagent.run.RunControl;
import dev.openagent.sandbox.Environment;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A frontier search against the results store: its run (one per agent, environments, shifts, threshold, confidence,
 * task plan; the budget is not part of it, so a rerun with a larger budget continues the same run), its episodes run
 * as eval runs them ({@link StoreRunner}), its status saved at the end.
 */
public final class FrontierRun {
    private FrontierRun() {}

    /**
     * What to search.
     *
     * @param shifts      a {@code --shift} spec: the shifts whose ladders are climbed
     * @param concurrency episodes in flight at once
     */
    public record Request(EvalAgent agent, List<String> envs, String shifts, FrontierSearch.Settings settings, long seed, String split,
                          int difficulty, int concurrency) {
        public Request {
            envs = List.copyOf(envs);
            if (envs.isEmpty()) throw new UserInputException("name at least one environment");
        }

        /** The frontier as an eval experiment: what episode identities and the task plan derive from. */
        Experiment experiment() {
            return new Experiment(null, null, envs, List.of(shifts), settings.maxTasks(), 1, seed, split, difficulty, concurrency, null);
        }

        /** The run's stored configuration: everything that decides its episodes and verdicts, the budget aside. */
        Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kind", "frontier");
            m.put("agent", Map.of("label", agent.label(), "identity", agent.identity()));
            m.put("envs", envs);
            m.put("shifts", shifts);
            m.put("drop", settings.drop());
            m.put("confidence", settings.confidence());
            m.put("max_tasks", settings.maxTasks());
            m.put("look", settings.look());
            m.put("pairs", settings.pairs());
            m.put("growth", settings.growth());
            m.put("max_layers", settings.maxLayers());
            m.put("seed", seed);
            m.put("split", experiment().splitValue().id());
            m.put("difficulty", difficulty);
            m.put("harness", EvalRunner.HARNESS_VERSION);
            return m;
        }

        public String runId() {
            return "frontier-" + EpisodeKey.Hashing.sha256(Json.write(describe())).substring(0, 12);
        }
    }

    /**
     * A finished (or stopped) search.
     *
     * @param internalError the first exception thrown inside an episode (a bug), or null
     */
    public record Result(String runId, Frontier frontier, Throwable internalError, Map<String, String> episodeIds) {
        /** The store's id of the episode of a task under a condition ({@code none}: static), or null when the search did not run it. */
        public String episodeId(String env, String condition, int task) {
            return episodeIds.get(env + "\u0000" + condition + "\u0000" + task);
        }
    }

    /** Runs the search; {@code progress} hears of every episode, {@code listener} of every round. */
    public static Result run(Catalog catalog, ResultStore store, RunControl control, Progress progress, FrontierSearch.Listener listener, Request req) {
        Map<String, Environment> environments = new LinkedHashMap<>();
        Map<String, List<Ladder>> ladders = new LinkedHashMap<>();
        List<String> notApplicable = new ArrayList<>();
        Experiment exp = req.experiment();
        for (String id : req.envs()) {
            Environment e = catalog.get(id);
            if (req.difficulty() != 0 && !e.info().difficulties().contains(req.difficulty())) {
                throw new UserInputException(id + " has no difficulty " + req.difficulty() + " (levels: " + e.info().difficulties() + ")");
            }
            environments.put(id, e);
            List<Ladder> mine = new ArrayList<>();
            for (Ladder l : Ladder.of(req.shifts(), id)) {
                Optional<String> why = Conditions.notApplicable(l.rungs().getFirst().stack(), e);
                if (why.isPresent()) notApplicable.add(id + " / " + l.name() + ": " + why.get());
                else mine.add(l);
            }
            ladders.put(id, mine);
        }
        String runId = req.runId();
        String config = Json.write(req.describe());
        String name = "frontier of " + req.agent().label() + " on " + String.join(",", req.envs());
        store.beginRun(runId, name, config, req.settings().budget());
        StoreRunner runner = new StoreRunner(store, new EvalRunner(catalog, store, control, progress), runId, req.agent(), exp, environments);
        Map<String, String> ids = new HashMap<>();
        FrontierSearch.Runner recording = cells -> {
            for (FrontierSearch.Cell c : cells) ids.put(c.env() + "\u0000" + c.stack().label() + "\u0000" + c.task(), runner.episodeId(c));
            return runner.run(cells);
        };
        FrontierSearch search = new FrontierSearch(req.settings(), ladders,
                (env, stack) -> Conditions.notApplicable(stack, environments.get(env)), recording, listener);
        Frontier f = search.run(notApplicable);
        // the verdicts first: a run saved complete has its verdicts (a rerun that continues the search writes them again)
        store.saveFrontier(runId, f.verdicts());
        store.saveRun(runId, name, config, f.spent(), f.complete() ? RunStatus.COMPLETE : RunStatus.STOPPED, f.stopped());
        return new Result(runId, f, runner.internalError(), Map.copyOf(ids));
    }

    /**
     * Example failing trajectories: for each shift that broke the agent (at its breaking rung) and each breaking
     * composition, the first episode that failed on a task the agent solved static, read from the store.
     */
    public static List<EpisodeResult> examples(ResultStore store, Result r) {
        List<String> wanted = new ArrayList<>();
        for (Frontier.ShiftResult s : r.frontier().shifts()) {
            if (s.status() == Frontier.Status.BREAKS) first(r, s.decisive()).ifPresent(wanted::add);
        }
        for (Frontier.Test t : r.frontier().compositions()) if (t.breaks()) first(r, t).ifPresent(wanted::add);
        return store.episodes(wanted).stream().filter(e -> e.trajectory() != null).toList();
    }

    private static Optional<String> first(Result r, Frontier.Test t) {
        return t.failing().isEmpty() ? Optional.empty() : Optional.ofNullable(r.episodeId(t.env(), t.label(), t.failing().getFirst()));
    }
}
