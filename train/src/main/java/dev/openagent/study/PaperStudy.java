package dev.openagent.study;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyEval;
import dev.openagent.policy.PolicyRunner;
import dev.openagent.run.EpisodeResult;
import dev.openagent.policy.Trainer;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import dev.openagent.shift.Tier;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The paper's experiment end to end on the {@code poi} environment: train SFT, RL (from the SFT
 * policy) and PAFT at several mixing ratios; evaluate each on the static test split, on every
 * shift of the catalog (grouped by tier) and on {@code domain.transfer} to {@code medical} when
 * that environment exists; check the paper's findings against the numbers.
 * <p>
 * To fit a laptop's minutes, PAFT continues from the SFT policy on the mixture (a fraction alpha of
 * shifted episodes, the rest static) rather than training from scratch; {@code openagent train
 * --method paft} without {@code --init} trains from scratch.
 */
public final class PaperStudy {
    public static final String ENV = "poi";
    public static final String TRANSFER_ENV = "medical";
    public static final String TRANSFER_SHIFT = "domain.transfer";
    public static final String STATIC = "static";

    /**
     * How much to train and evaluate.
     *
     * @param sftSteps  SFT optimiser steps
     * @param paftSteps PAFT optimiser steps, continuing from the SFT policy on the mixture
     * @param tasks     test tasks per condition (static, each shift)
     */
    public record Budget(String name, int sftSteps, int rlIterations, int rlGroupTasks, int rlGroupSize, int paftSteps, int tasks,
                         List<Double> alphas) {
        public static Budget quick() { return new Budget("quick", 700, 15, 16, 8, 150, 100, List.of(0.1, 0.3, 0.5)); }

        public static Budget full() { return new Budget("full", 1500, 60, 16, 8, 600, 400, List.of(0.1, 0.3, 0.5)); }
    }

    /** Peak learning rate of PAFT's continued training from the SFT policy. */
    static final float PAFT_LR = 1e-3f;

    /** One cell of the results: an agent under a condition (shift null: the tier aggregate, or the static row). */
    public record Row(String agent, String tier, String shift,
                      @JsonProperty("success_rate") double successRate,
                      @JsonProperty("ci_low") double ciLow,
                      @JsonProperty("ci_high") double ciHigh,
                      @JsonProperty("refusal_rate") double refusalRate,
                      int episodes) {}

    /** A condition to evaluate on. */
    record Condition(String tier, String shift, Environment env, ShiftStack stack) {}

    /** The study's outcome: rows, how each agent was trained, the paper's findings checked, notes, timings. */
    public record Result(String budget, long seed, List<Row> rows, Map<String, ObjectNode> training, List<Finding> findings,
                         List<String> notes, Map<String, Double> seconds) {}

    /** What one agent's evaluation produced: its rows, and its episodes for the HTML report. */
    record Evaluated(List<Row> rows, List<EpisodeResult> episodes) {}

    /** A claim of the paper and what this run shows about it. */
    public record Finding(String claim, String verdict, String evidence) {}

    private PaperStudy() {}

    /**
     * Runs the study. Training is sequential (one gradient collector per JVM); each trained policy
     * is evaluated on a second thread while the next one trains, so two cores are both used.
     */
    public static Result run(Budget budget, long seed, Path dir, Consumer<String> log) {
        return run(budget, seed, dir, log, episodes -> {});
    }

    /**
     * Runs the study and hands every evaluated episode (all agents, all conditions) to
     * {@code report}, for the evaluation report's heatmap, bars and trajectory browser.
     */
    public static Result run(Budget budget, long seed, Path dir, Consumer<String> log, Consumer<List<EpisodeResult>> report) {
        Environment poi = Environments.get(ENV);
        List<String> notes = new ArrayList<>();
        List<Condition> conditions = conditions(poi, notes);
        if (ShiftCatalog.all().isEmpty()) notes.add("the shift catalog is empty: PAFT trains on static data only and equals SFT");
        Map<String, ObjectNode> training = new LinkedHashMap<>();
        Map<String, Double> seconds = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, Evaluated> byAgent = new java.util.concurrent.ConcurrentHashMap<>();
        List<String> agents = new ArrayList<>();
        try (StudyKit.Pipeline pipeline = new StudyKit.Pipeline()) {
            Path sftDir = dir.resolve("policies/sft");
            List<Trainer.Options> plan = new ArrayList<>();
            plan.add(Trainer.Options.of(Trainer.Method.SFT, ENV, budget.sftSteps(), seed));
            plan.add(Trainer.Options.of(Trainer.Method.RL, ENV, budget.rlIterations(), seed).withInit(sftDir)
                    .withGroups(budget.rlGroupTasks(), budget.rlGroupSize()));
            for (double alpha : budget.alphas()) {
                Trainer.Options paft = Trainer.Options.of(Trainer.Method.PAFT, ENV, budget.paftSteps(), seed).withAlpha(alpha).withInit(sftDir);
                plan.add(paft.withBatch(paft.batch(), PAFT_LR));
            }
            for (Trainer.Options o : plan) {
                String name = o.method() == Trainer.Method.PAFT ? paftName(o.alpha()) : o.method().id();
                agents.add(name);
                long t = System.nanoTime();
                Trainer.Result r = Trainer.train(o, log);
                Checkpoint.save(r.policy(), dir.resolve("policies/" + name), r.info());
                training.put(name, r.info());
                seconds.put("train " + name, StudyKit.since(t));
                pipeline.evaluate(() -> {
                    try (Policy p = r.policy()) {
                        byAgent.put(name, evaluate(name, p, conditions, budget, seed, seconds, log));
                    }
                });
            }
            pipeline.await();
        }
        List<Row> rows = new ArrayList<>();
        List<EpisodeResult> episodes = new ArrayList<>();
        for (String a : agents) {
            rows.addAll(byAgent.get(a).rows());
            episodes.addAll(byAgent.get(a).episodes());
        }
        report.accept(episodes);
        Map<String, Double> ordered = new LinkedHashMap<>();
        for (String a : agents) {
            ordered.put("train " + a, seconds.get("train " + a));
            ordered.put("evaluate " + a, seconds.get("evaluate " + a));
        }
        return new Result(budget.name(), seed, rows, training, Findings.check(rows, budget.alphas()), notes, ordered);
    }

    static String paftName(double alpha) {
        return String.format(Locale.ROOT, "paft-%.1f", alpha);
    }

    /**
     * Static, every applicable catalog shift at its default parameters, and domain.transfer to
     * {@code medical} when that environment is registered (the catalog's own domain.transfer with
     * {@code to=medical}).
     */
    static List<Condition> conditions(Environment poi, List<String> notes) {
        List<Condition> out = new ArrayList<>();
        out.add(new Condition(STATIC, null, poi, ShiftStack.NONE));
        for (Shift s : ShiftCatalog.all()) {
            boolean transfer = s.id().equals(TRANSFER_SHIFT);
            if (transfer && !Environments.ids().contains(TRANSFER_ENV)) {
                notes.add(TRANSFER_SHIFT + " not evaluated: no '" + TRANSFER_ENV + "' environment is registered");
                continue;
            }
            ShiftStack stack = ShiftSpec.parseStack(transfer ? TRANSFER_SHIFT + ":to=" + TRANSFER_ENV : s.id());
            var why = stack.notApplicable(poi.info());
            if (why.isPresent()) {
                notes.add("not evaluated: " + why.get());
                continue;
            }
            out.add(new Condition(s.tier().id(), s.id(), poi, stack));
        }
        if (ShiftCatalog.all().stream().noneMatch(s -> s.id().equals(TRANSFER_SHIFT))) {
            notes.add(TRANSFER_SHIFT + " not evaluated: the shift catalog has no " + TRANSFER_SHIFT);
        }
        return out;
    }

    /** The agent's rows (static first, then one per tier with its shifts pooled, then one per shift) and its episodes. */
    static Evaluated evaluate(String agent, Policy policy, List<Condition> conditions, Budget budget, long seed,
                              Map<String, Double> seconds, Consumer<String> log) {
        long t = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        List<EpisodeResult> results = new ArrayList<>();
        Map<String, List<Trajectory>> byTier = new LinkedHashMap<>();
        List<Row> shiftRows = new ArrayList<>();
        String configHash = "study paper " + budget.name() + " seed " + seed;
        for (Condition c : conditions) {
            List<PolicyRunner.Episode> eps = PolicyEval.episodes(policy, agent, c.env(), c.stack(), Split.TEST, budget.tasks(), seed);
            List<Trajectory> ts = eps.stream().map(PolicyRunner.Episode::trajectory).toList();
            for (int i = 0; i < eps.size(); i++) {
                results.add(StudyKit.result(configHash, agent, c.tier(), c.shift() == null ? "none" : c.stack().label(), i, 0, eps.get(i)));
            }
            if (c.shift() == null) {
                rows.add(row(agent, c.tier(), null, ts));
            } else {
                shiftRows.add(row(agent, c.tier(), c.shift(), ts));
                byTier.computeIfAbsent(c.tier(), k -> new ArrayList<>()).addAll(ts);
            }
        }
        for (Tier tier : Tier.values()) {
            List<Trajectory> ts = byTier.get(tier.id());
            if (ts != null) rows.add(row(agent, tier.id(), null, ts));
        }
        rows.addAll(shiftRows);
        seconds.put("evaluate " + agent, StudyKit.since(t));
        Row st = rows.getFirst();
        log.accept(String.format(Locale.ROOT, "%s: static %.3f [%.3f, %.3f]; %d conditions in %.1f s", agent, st.successRate(),
                st.ciLow(), st.ciHigh(), conditions.size(), StudyKit.since(t)));
        return new Evaluated(rows, results);
    }

    private static Row row(String agent, String tier, String shift, List<Trajectory> ts) {
        PolicyEval.Figures f = PolicyEval.Figures.of(ts);
        return new Row(agent, tier, shift, f.successRate(), f.ciLow(), f.ciHigh(), f.refusalRate(), f.episodes());
    }

    /** The rows as {@code --json} prints them. */
    public static ObjectNode json(Result r) {
        ObjectNode o = Json.object();
        o.set("rows", Json.tree(r.rows()));
        o.put("budget", r.budget());
        o.put("seed", r.seed());
        o.set("findings", Json.tree(r.findings()));
        o.set("notes", Json.tree(r.notes()));
        o.set("training", Json.tree(r.training()));
        o.set("seconds", Json.tree(r.seconds()));
        return o;
    }
}
