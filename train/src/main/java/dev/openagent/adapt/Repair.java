package dev.openagent.adapt;

import dev.openagent.adapt.AdaptationStudy.Budget;
import dev.openagent.adapt.AdaptationStudy.Method;
import dev.openagent.adapt.AdaptationStudy.Point;
import dev.openagent.adapt.AdaptationStudy.Row;
import dev.openagent.adapt.AdaptationStudy.Scenario;
import dev.openagent.adapt.AdaptationStudy.Start;
import dev.openagent.curve.CurveSink;
import dev.openagent.episode.Trajectory;
import dev.openagent.frontier.Focus;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyEval;
import dev.openagent.policy.PolicyEval.Figures;
import dev.openagent.policy.PolicyRunner;
import dev.openagent.policy.Trainer;
import dev.openagent.registry.Catalog;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.shift.ShiftStack;
import dev.openagent.study.StudyProgress;
import org.apache.commons.io.file.PathUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.openagent.adapt.AdaptationStudy.f3;
import static dev.openagent.study.StudyKit.since;

/**
 * One repair of the adaptation study ({@link AdaptationStudy}): a starting point, a persistent shift and a method,
 * evaluated round after round until it is recovered or the budget is spent, then on static and the other shifts.
 */
final class Repair {
    private Repair() {}

    /** One repair to run. */
    record Job(Scenario scenario, Start start, Method method) {
        String dirName() { return scenario.name() + "-" + start.id + "-" + method.id; }

        String label() { return start.id + " / " + scenario.label() + " / " + method.id; }

        /** Its own seed: the repairs' training data differ from one another's and from the starting points'. */
        long seed(long seed) {
            return Seeds.mix(Seeds.mix(seed, Seeds.derive(0xADA7, scenario.spec())), start.ordinal() * 2L + method.ordinal());
        }
    }

    /** A condition evaluated: its key, the stack and how many test tasks. */
    record Condition(String key, ShiftStack stack, int tasks) {}

    /**
     * Runs one repair: rounds until recovered or the budget is spent, then the static and other-shift evaluations of
     * the policy it stopped with (the start itself when it was already recovered).
     */
    static Row run(Job j, Budget budget, long seed, List<Scenario> scenarios, Path startDir, Map<String, Figures> start,
                      Environment env, Path dir, StudyProgress progress) {
        long t0 = System.nanoTime();
        delete(dir);
        Figures staticBefore = start.get("static");
        Figures targetBefore = start.get(j.scenario().spec());
        double threshold = staticBefore.successRate() - budget.margin();
        List<Point> curve = new ArrayList<>();
        curve.add(new Point(0, targetBefore));
        Long recovered = targetBefore.successRate() >= threshold ? 0L : null;
        Path current = startDir;
        long spent = 0;
        long seed2 = j.seed(seed);
        float offlineLr = Adaptation.defaultLr(startDir, AdaptationStudy.ENV);
        OnlineAdaptation.Settings online = new OnlineAdaptation.Settings(startDir, AdaptationStudy.ENV, j.scenario().stack(), Split.TRAIN, 0,
                budget.episodes() / budget.groupSize(), budget.groupSize(), 1, AdaptationStudy.ONLINE_LR, seed2, j.label());
        Focus targets = Adaptation.applicable(Adaptation.targets(j.scenario().spec(), AdaptationStudy.ENV), env, new ArrayList<>());
        for (int round = 0; recovered == null && round < budget.points().size(); round++) {
            int point = budget.points().get(round);
            int episodes = (int) (point - spent);
            if (j.method() == Method.OFFLINE) {
                Path out = dir.resolve(String.format(Locale.ROOT, "round-%d", round + 1));
                Adaptation.Settings s = new Adaptation.Settings(current, AdaptationStudy.ENV, targets, j.scenario().spec(), episodes, Adaptation.DEFAULT_REPLAY,
                        Seeds.mix(seed2, round), 1, offlineLr, 1);
                Trainer.Result r = Adaptation.train(new Catalog(), s, targets, line -> {}, step -> {});
                try (Policy p = r.policy()) {
                    Checkpoint.save(p, out, r.info());
                }
                current = out;
            } else {
                OnlineAdaptation.run(new Catalog(), online, dir.resolve("online"), CurveSink.NONE, line -> {}, point / budget.groupSize());
                current = OnlineAdaptation.checkpoint(dir.resolve("online"), point / budget.groupSize());
            }
            spent = point;
            Figures target;
            try (Policy p = Checkpoint.load(current)) {
                target = evaluate(p, j.start().id, env, List.of(new Condition("target", j.scenario().stack(), budget.targetTasks())), seed, 1,
                        null).get("target");
            }
            curve.add(new Point(point, target));
            if (target.successRate() >= threshold) recovered = (long) point;
            progress.log(String.format(Locale.ROOT, "%s: %d episodes, %s under the shift%s", j.label(), point, f3(target),
                    recovered != null ? " (recovered)" : ""));
        }
        Figures staticAfter = staticBefore;
        List<Figures> othersBefore = new ArrayList<>();
        List<Figures> othersAfter = new ArrayList<>();
        List<Scenario> others = scenarios.stream().filter(s -> !s.spec().equals(j.scenario().spec())).toList();
        for (Scenario s : others) othersBefore.add(start.get(s.spec()));
        if (spent == 0) {
            othersAfter.addAll(othersBefore);
        } else {
            List<Condition> conditions = new ArrayList<>();
            conditions.add(new Condition("static", ShiftStack.NONE, budget.staticTasks()));
            for (Scenario s : others) conditions.add(new Condition(s.spec(), s.stack(), budget.targetTasks()));
            try (Policy p = Checkpoint.load(current)) {
                Map<String, Figures> after = evaluate(p, j.start().id, env, conditions, seed, 1, null);
                staticAfter = after.get("static");
                for (Scenario s : others) othersAfter.add(after.get(s.spec()));
            }
        }
        return new Row(j.scenario().name(), j.scenario().spec(), j.scenario().tier(), j.start().id, j.method().id, staticBefore, staticAfter,
                targetBefore, curve.getLast().target(), pooled(othersBefore), pooled(othersAfter), recovered, spent, curve, since(t0));
    }

    /** Figures of several conditions pooled: their episodes summed, the interval of the pool. */
    static Figures pooled(List<Figures> all) {
        int n = all.stream().mapToInt(Figures::episodes).sum();
        int k = all.stream().mapToInt(Figures::successes).sum();
        var r = dev.openagent.metrics.Rate.of(k, n);
        double refusals = all.stream().mapToDouble(f -> f.refusalRate() * f.episodes()).sum();
        return r == null ? new Figures(0, 0, 0, 0, 1, 0)
                : new Figures(n, k, PolicyEval.round(r.value()), PolicyEval.round(r.lo()), PolicyEval.round(r.hi()), PolicyEval.round(refusals / n));
    }

    /** Greedy success of the policy on each condition's test tasks (from {@code seed}), all in one lockstep run. */
    static Map<String, Figures> evaluate(Policy policy, String agent, Environment env, List<Condition> conditions, long seed,
                                                 int threads, StudyProgress.Phase phase) {
        List<PolicyRunner.Job> jobs = new ArrayList<>();
        for (Condition c : conditions) jobs.addAll(PolicyEval.jobs(env, c.stack(), Split.TEST, c.tasks(), seed));
        List<PolicyRunner.Episode> all = PolicyEval.episodes(policy, agent, jobs, threads, e -> {
            if (phase != null) phase.advance(1);
        });
        Map<String, Figures> out = new LinkedHashMap<>();
        int i = 0;
        for (Condition c : conditions) {
            List<Trajectory> part = all.subList(i, i + c.tasks()).stream().map(PolicyRunner.Episode::trajectory).toList();
            out.put(c.key(), Figures.of(part));
            i += c.tasks();
        }
        return out;
    }

    private static void delete(Path dir) {
        try {
            if (Files.exists(dir)) PathUtils.deleteDirectory(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + dir + ": " + e.getMessage(), e);
        }
    }
}
