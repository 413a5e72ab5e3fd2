package dev.openagent.study;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.metrics.ByShift;
import dev.openagent.policy.ActionSpace;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyEval;
import dev.openagent.policy.PolicyRunner;
import dev.openagent.policy.ShiftSampler;
import dev.openagent.results.EpisodeResult;
import dev.openagent.policy.Trainer;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
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
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The paper's experiment end to end on the {@code poi} environment: train SFT, RL (from the SFT
 * policy), PAFT at several mixing ratios and the scaling ablation (SFT with 4x the steps, SFT with
 * 4x the training tasks); evaluate each on the static test split, on every shift of the catalog
 * (grouped by tier) and on {@code domain.transfer} to {@code medical} when that environment exists;
 * check the paper's findings against the numbers.
 * <p>
 * SFT and its variants draw from a fixed pool of training tasks ({@link Budget#sftTasks}), so that
 * "4x the data" means something. To fit a laptop's minutes, PAFT continues from the SFT policy on
 * the mixture (a fraction alpha of shifted episodes over the same tasks, the rest static) rather
 * than training from scratch; {@code openagent train --method paft} without {@code --init} trains
 * from scratch.
 */
public final class PaperStudy {
    public static final String ID = "paper";
    public static final String ENV = "poi";
    public static final String TRANSFER_ENV = "medical";
    public static final String TRANSFER_SHIFT = "domain.transfer";
    public static final String STATIC = "static";
    /** The scaling ablation's agents: SFT with 4x the steps, SFT with 4x the training tasks (same steps). */
    public static final String SFT_4X_STEPS = "sft-4x-steps";
    public static final String SFT_4X_DATA = "sft-4x-data";
    static final int SCALE = 4;
    /** The mixing ratios of the alpha sweep: the paper's best, 0.3, and one below and one above. */
    static final List<Double> SWEEP = List.of(0.1, 0.3, 0.5);
    /** PAFT at the paper's best ratio alone: the quick study without the sweep. */
    static final List<Double> BEST_ALONE = List.of(0.3);

    /**
     * How much to train and evaluate.
     *
     * @param sftSteps     SFT optimiser steps (the 4x-steps agent trains four times as many)
     * @param sftTasks     distinct training tasks SFT draws from, in turn (the 4x-data agent draws from four times as many)
     * @param rlShifted    fraction of RL's rollout groups run under a shift drawn from the catalog (groups with signal:
     *                     from an SFT policy near 100% static, static groups almost all succeed in every rollout)
     * @param paftSteps    PAFT optimiser steps, continuing from the SFT policy on the mixture
     * @param mix          how PAFT spreads shifts over the catalog (RL's shifted rollouts keep {@link #RL_MIX})
     * @param tasks        test tasks per condition (static, each shift)
     * @param alphas       PAFT's mixing ratios, one agent each ({@link #SWEEP} for the alpha sweep)
     * @param scaling      whether to train and evaluate the scaling ablation ({@link #SFT_4X_STEPS}, {@link #SFT_4X_DATA})
     */
    public record Budget(String name, int sftSteps, int sftTasks, int rlIterations, int rlGroupTasks, int rlGroupSize, double rlShifted,
                         int paftSteps, ShiftSampler.Mix mix, int tasks, List<Double> alphas, boolean scaling) {
        /**
         * Minutes on two cores: SFT, RL and PAFT at alpha 0.3, the agents the paper's claims compare. The alpha sweep
         * (PAFT at 0.1 and 0.5 too, {@link #withAlphaSweep}) and the scaling ablation ({@link #withScaling}) are left out:
         * with the sweep the study took 11 min 59 s, without it 6 min 09 s (the same rows for SFT, RL and PAFT-0.3), and
         * {@code sft-4x-steps} alone trains four times SFT's 700 steps. PAFT trains 600 steps, as in the full study: from
         * this SFT policy, 150 recovered 30% / 40% of the Perception / Interaction drop and 600 recovered 51-54% / 73-76%
         * over training seeds 1-3 (the paper's "much of it"; docs/training.md, *Where --quick PAFT is squeezed*).
         */
        public static Budget quick() {
            return new Budget("quick", 700, 1000, 15, 16, 8, 0.5, 600, PAFT_MIX, 100, BEST_ALONE, false);
        }

        /**
         * Seconds: a handful of steps and tasks, for tests that run the study end to end (the command's hidden
         * {@code --tiny}). Its numbers mean nothing; every row, finding and file is there.
         */
        public static Budget tiny() {
            return new Budget("tiny", 4, 16, 1, 2, 2, 0.5, 2, PAFT_MIX, 2, SWEEP, false);
        }

        public static Budget full() {
            return new Budget("full", 1500, 2000, 60, 16, 8, 0.5, 600, PAFT_MIX, 400, SWEEP, true);
        }

        public Budget withMix(ShiftSampler.Mix m) {
            return new Budget(name, sftSteps, sftTasks, rlIterations, rlGroupTasks, rlGroupSize, rlShifted, paftSteps, m, tasks, alphas, scaling);
        }

        /** With the alpha sweep (PAFT at 0.1, 0.3 and 0.5), or PAFT at 0.3 alone. */
        public Budget withAlphaSweep(boolean on) {
            return new Budget(name, sftSteps, sftTasks, rlIterations, rlGroupTasks, rlGroupSize, rlShifted, paftSteps, mix, tasks,
                    on ? SWEEP : BEST_ALONE, scaling);
        }

        public Budget withScaling(boolean on) {
            return new Budget(name, sftSteps, sftTasks, rlIterations, rlGroupTasks, rlGroupSize, rlShifted, paftSteps, mix, tasks, alphas, on);
        }
    }

    /**
     * Peak learning rate of PAFT's continued training from the SFT policy. At 150 steps 2e-3 recovered
     * more of the shifted tiers than 1e-3 at the same static success; 3e-3 cost 5 points of static
     * ({@code study paft-mix}, docs/training.md).
     */
    public static final float PAFT_LR = 2e-3f;

    /**
     * The PAFT mix, chosen by {@code study paft-mix} (docs/training.md, "The PAFT recipe, chosen by
     * measurement"): 20% of the perturbed episodes are refusal demonstrations ({@code task.unsolvable}), the
     * rest spread evenly over the shifts of the perception and interaction tiers. Drawn uniformly over the
     * catalog, 1 perturbed episode in 30 is a refusal demonstration (28 at the quick budget): refusal stayed
     * at 0.01. A 15% share reached 0.8 for one training seed in three (20%: two in three); 25% and more
     * also refused after transient errors and redirects (the same signal: an error or an empty result),
     * costing interaction recovery. The reasoning and other internalization shifts, which 150 steps did not teach, took 9 of
     * the 30 shares. Since PAFT demonstrates slips and weights refusals ({@code Trainer.SLIPS}, {@code REFUSAL_WEIGHT}),
     * refusal is 0.90-0.93 over three training seeds, and the policy refuses 0-2% of {@code obs.runtime-error} episodes
     * (0.37 before); after redirects it still refuses 38-46% (docs/training.md).
     */
    public static final ShiftSampler.Mix PAFT_MIX = new ShiftSampler.Mix(false, 0.2).only(Tier.PERCEPTION, Tier.INTERACTION);

    /**
     * RL's shifted rollout groups: every shift equally likely. RL's refusal on {@code task.unsolvable} is a
     * measurement of RL (the paper's boundary blindness), so its rollouts do not take PAFT's recipe.
     */
    static final ShiftSampler.Mix RL_MIX = ShiftSampler.Mix.UNIFORM;

    /**
     * One cell of the results: an agent under a condition (shift null: the tier aggregate, or the static row).
     * {@code ceiling}: the share of the condition's test tasks the policy's action space can express at all
     * ({@link ActionSpace}: the oracle's actions replayed through the SFT policy's pointers, which RL and PAFT
     * inherit); a tier's pools its shifts' tasks. Null where it was not measured (the PAFT mix ablation).
     */
    public record Row(String agent, String tier, String shift,
                      @JsonProperty("success_rate") double successRate,
                      @JsonProperty("ci_low") double ciLow,
                      @JsonProperty("ci_high") double ciHigh,
                      @JsonProperty("refusal_rate") double refusalRate,
                      int episodes,
                      @JsonProperty("attack_success_rate") @JsonInclude(JsonInclude.Include.NON_NULL) Double attackSuccessRate,
                      @JsonInclude(JsonInclude.Include.NON_NULL) Double ceiling) {
        /** A row of conditions nobody attacks. */
        public Row(String agent, String tier, String shift, double successRate, double ciLow, double ciHigh, double refusalRate, int episodes) {
            this(agent, tier, shift, successRate, ciLow, ciHigh, refusalRate, episodes, null, null);
        }

        /** A row without its ceiling. */
        public Row(String agent, String tier, String shift, double successRate, double ciLow, double ciHigh, double refusalRate, int episodes,
                   Double attackSuccessRate) {
            this(agent, tier, shift, successRate, ciLow, ciHigh, refusalRate, episodes, attackSuccessRate, null);
        }

        public Row withCeiling(Double c) {
            return new Row(agent, tier, shift, successRate, ciLow, ciHigh, refusalRate, episodes, attackSuccessRate, c);
        }
    }

    /** A condition to evaluate on. */
    record Condition(String tier, String shift, Environment env, ShiftStack stack) {}

    /**
     * The study's outcome: which study ({@code paper}, or {@code paft-mix} for the PAFT mix ablation),
     * rows, how each agent was trained, the paper's findings checked, notes, timings.
     */
    public record Result(String study, String budget, long seed, List<Row> rows, Map<String, ObjectNode> training, List<Finding> findings,
                         List<String> notes, Map<String, Double> seconds) {
        public boolean isPaftMix() { return study.equals(PaftMixStudy.ID); }
    }

    /** What one agent's evaluation produced: its rows, and its episodes for the HTML report. */
    record Evaluated(List<Row> rows, List<EpisodeResult> episodes) {}

    /** A claim of the paper and what this run shows about it. */
    public record Finding(String claim, String verdict, String evidence) {}

    /**
     * One agent to train: its name, its options, whether it continues from the SFT policy, and on how many
     * threads its steps run (the same policy either way; see {@link Trainer#train(Trainer.Options, Consumer,
     * java.util.function.IntConsumer, int)}).
     */
    record Plan(String agent, Trainer.Options options, boolean fromSft, int threads) {}

    private PaperStudy() {}

    /**
     * The agents in the order they are trained ({@code dir}: where the SFT checkpoint will be): SFT
     * and the long 4x-steps run first, side by side, then what continues from SFT.
     */
    static List<Plan> plan(Budget budget, long seed, Path dir) {
        Path sftDir = dir.resolve("policies/sft");
        List<Plan> plan = new ArrayList<>();
        Trainer.Options sft = Trainer.Options.of(Trainer.Method.SFT, ENV, budget.sftSteps(), seed).withTaskPool(budget.sftTasks());
        // Without the scaling ablation SFT trains alone (everything else continues from it): both cores.
        plan.add(new Plan("sft", sft, false, budget.scaling() ? 1 : StudyKit.Pipeline.TRAINERS));
        if (budget.scaling()) {
            // Both cores: the longest training, it ends alone once everything else is trained and evaluated (on one
            // thread it alone took 33 minutes of the full study's 34).
            plan.add(new Plan(SFT_4X_STEPS, Trainer.Options.of(Trainer.Method.SFT, ENV, SCALE * budget.sftSteps(), seed)
                    .withTaskPool(budget.sftTasks()), false, StudyKit.Pipeline.TRAINERS));
            plan.add(new Plan(SFT_4X_DATA, sft.withTaskPool(SCALE * budget.sftTasks()), false, 1));
        }
        plan.add(new Plan("rl", Trainer.Options.of(Trainer.Method.RL, ENV, budget.rlIterations(), seed).withInit(sftDir)
                .withGroups(budget.rlGroupTasks(), budget.rlGroupSize()).withAlpha(budget.rlShifted()).withMix(RL_MIX), true, 1));
        for (double alpha : budget.alphas()) {
            Trainer.Options paft = Trainer.Options.of(Trainer.Method.PAFT, ENV, budget.paftSteps(), seed).withAlpha(alpha).withInit(sftDir)
                    .withTaskPool(budget.sftTasks()).withMix(budget.mix());
            // Both cores: the same weights as one thread, and the last PAFT training often runs alone at the end.
            plan.add(new Plan(paftName(alpha), paft.withBatch(paft.batch(), PAFT_LR), true, StudyKit.Pipeline.TRAINERS));
        }
        return plan;
    }

    /** The agents as the tables list them: SFT, RL, PAFT by alpha, then the scaling ablation. */
    static List<String> agents(List<Plan> plan) {
        List<String> out = new ArrayList<>(plan.stream().map(Plan::agent).filter(a -> !a.startsWith("sft-")).toList());
        for (String a : List.of(SFT_4X_DATA, SFT_4X_STEPS)) if (plan.stream().anyMatch(p -> p.agent().equals(a))) out.add(a);
        return out;
    }

    /**
     * Runs the study with plain log lines. Two trainings run at once (SFT beside its 4x-steps
     * variant, then what continues from SFT) while trained policies are evaluated on a third thread.
     */
    public static Result run(Budget budget, long seed, Path dir, Consumer<String> log) {
        return run(budget, seed, dir, StudyProgress.lines(log), episodes -> {});
    }

    /**
     * Runs the study and hands every evaluated episode (all agents, all conditions) to
     * {@code report}, for the evaluation report's heatmap, bars and trajectory browser.
     */
    public static Result run(Budget budget, long seed, Path dir, StudyProgress progress, Consumer<List<EpisodeResult>> report) {
        Environment poi = Environments.get(ENV);
        List<String> notes = new ArrayList<>();
        List<Condition> conditions = conditions(poi, notes);
        if (ShiftCatalog.all().isEmpty()) notes.add("the shift catalog is empty: PAFT trains on static data only and equals SFT");
        if (budget.alphas().size() < 2) notes.add("the alpha sweep (PAFT at alpha 0.1 and 0.5) was not run at this budget (--alpha-sweep adds it)");
        if (!budget.scaling()) notes.add("the scaling ablation (" + SFT_4X_STEPS + ", " + SFT_4X_DATA + ") was not run at this budget (--scaling adds it)");
        Map<String, ObjectNode> training = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, Double> seconds = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, Evaluated> byAgent = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, ActionSpace.Ceiling> ceilings = new java.util.concurrent.ConcurrentHashMap<>();
        List<Plan> plan = plan(budget, seed, dir);
        List<String> agents = agents(plan);
        Map<String, StudyProgress.Phase> trainPhase = new LinkedHashMap<>();
        Map<String, StudyProgress.Phase> evalPhase = new LinkedHashMap<>();
        int episodesPerAgent = conditions.size() * budget.tasks();
        for (Plan p : plan) {
            trainPhase.put(p.agent(), progress.phase("train " + p.agent(), StudyProgress.trainingWork(p.options()), p.options().steps()));
        }
        for (String a : agents) {
            evalPhase.put(a, progress.phase("evaluate " + a, StudyProgress.evaluationWork(poi.info(), episodesPerAgent), episodesPerAgent));
        }
        try (StudyKit.Pipeline pipeline = new StudyKit.Pipeline()) {
            Map<String, Future<Trainer.Result>> trained = new LinkedHashMap<>();
            for (Plan p : plan) {
                Future<Trainer.Result> sft = trained.get("sft");
                trained.put(p.agent(), pipeline.train(() -> {
                    if (p.fromSft()) StudyKit.get(sft);
                    long t = System.nanoTime();
                    StudyProgress.Phase phase = trainPhase.get(p.agent());
                    progress.log("training " + p.agent());
                    Trainer.Result r = Trainer.train(p.options(), line -> progress.log(p.agent() + ": " + line), phase::advanceTo, p.threads());
                    phase.done();
                    Checkpoint.save(r.policy(), dir.resolve("policies/" + p.agent()), r.info());
                    training.put(p.agent(), r.info());
                    seconds.put("train " + p.agent(), StudyKit.since(t));
                    return r;
                }));
            }
            for (String a : agents) {
                Future<Trainer.Result> r = trained.get(a);
                pipeline.evaluate(() -> {
                    try (Policy policy = StudyKit.get(r).policy()) {
                        byAgent.put(a, evaluate(a, policy, conditions, budget, seed, seconds, progress, evalPhase.get(a)));
                        if (a.equals("sft")) ceilings.putAll(ceilings(policy, conditions, budget, seed, seconds));
                    }
                });
            }
            pipeline.await();
        }
        List<Row> rows = new ArrayList<>();
        List<EpisodeResult> episodes = new ArrayList<>();
        for (String a : agents) {
            rows.addAll(withCeilings(byAgent.get(a).rows(), conditions, ceilings));
            episodes.addAll(byAgent.get(a).episodes());
        }
        report.accept(episodes);
        Map<String, Double> ordered = new LinkedHashMap<>();
        Map<String, ObjectNode> trainedInfo = new LinkedHashMap<>();
        for (String a : agents) {
            ordered.put("train " + a, seconds.get("train " + a));
            ordered.put("evaluate " + a, seconds.get("evaluate " + a));
            trainedInfo.put(a, training.get(a));
        }
        if (seconds.containsKey(CEILINGS)) ordered.put(CEILINGS, seconds.get(CEILINGS));
        return new Result(ID, budget.name(), seed, rows, trainedInfo, Findings.check(rows, budget.alphas(), trainedInfo), notes, ordered);
    }

    /** The key of the ceilings' time in {@link Result#seconds}. */
    static final String CEILINGS = "ceilings (sft's action space)";

    /**
     * Each condition's ceiling, keyed as rows name conditions (the shift id, {@link #STATIC} for the static
     * row): how many of its test tasks (the ones every agent is evaluated on) the policy can express.
     */
    static Map<String, ActionSpace.Ceiling> ceilings(Policy policy, List<Condition> conditions, Budget budget, long seed, Map<String, Double> seconds) {
        long t = System.nanoTime();
        Map<String, ActionSpace.Ceiling> out = new LinkedHashMap<>();
        for (Condition c : conditions) {
            List<TaskRequest> requests = PolicyEval.jobs(c.env(), c.stack(), Split.TEST, budget.tasks(), seed).stream()
                    .map(PolicyRunner.Job::request).toList();
            out.put(c.shift() == null ? STATIC : c.shift(), ActionSpace.ceiling(policy, c.env(), c.stack(), requests));
        }
        seconds.put(CEILINGS, StudyKit.since(t));
        return out;
    }

    /** The rows with their conditions' ceilings; a tier row's pools the tasks of its shifts. */
    static List<Row> withCeilings(List<Row> rows, List<Condition> conditions, Map<String, ActionSpace.Ceiling> ceilings) {
        if (ceilings.isEmpty()) return rows;
        Map<String, int[]> tiers = new LinkedHashMap<>();
        for (Condition c : conditions) {
            ActionSpace.Ceiling x = ceilings.get(c.shift() == null ? STATIC : c.shift());
            if (c.shift() == null || x == null) continue;
            int[] sum = tiers.computeIfAbsent(c.tier(), k -> new int[2]);
            sum[0] += x.expressible();
            sum[1] += x.tasks();
        }
        return rows.stream().map(r -> {
            if (r.shift() != null || r.tier().equals(STATIC)) {
                ActionSpace.Ceiling x = ceilings.get(r.shift() == null ? STATIC : r.shift());
                return x == null ? r : r.withCeiling(x.rate());
            }
            int[] sum = tiers.get(r.tier());
            return sum == null ? r : r.withCeiling(new ActionSpace.Ceiling(sum[0], sum[1]).rate());
        }).toList();
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

    /**
     * Threads an agent's evaluation runs on: two, so that once the last training is done its evaluation
     * has both cores (beside the trainings, it shares them as one more thread would).
     */
    static final int EVALUATION_THREADS = 2;

    /** The agent's rows (static first, then one per tier with its shifts pooled, then one per shift) and its episodes. */
    static Evaluated evaluate(String agent, Policy policy, List<Condition> conditions, Budget budget, long seed,
                              Map<String, Double> seconds, StudyProgress progress, StudyProgress.Phase phase) {
        long t = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        List<EpisodeResult> results = new ArrayList<>();
        Map<String, List<Trajectory>> byTier = new LinkedHashMap<>();
        List<Row> shiftRows = new ArrayList<>();
        String configHash = "study paper " + budget.name() + " seed " + seed;
        List<PolicyRunner.Job> jobs = new ArrayList<>();
        int[] from = new int[conditions.size() + 1];
        for (int i = 0; i < conditions.size(); i++) {
            Condition c = conditions.get(i);
            jobs.addAll(PolicyEval.jobs(c.env(), c.stack(), Split.TEST, budget.tasks(), seed));
            from[i + 1] = jobs.size();
        }
        List<PolicyRunner.Episode> all = PolicyEval.episodes(policy, agent, jobs, EVALUATION_THREADS, e -> phase.advance(1));
        for (int i = 0; i < conditions.size(); i++) {
            Condition c = conditions.get(i);
            List<PolicyRunner.Episode> eps = all.subList(from[i], from[i + 1]);
            List<Trajectory> ts = eps.stream().map(PolicyRunner.Episode::trajectory).toList();
            for (int k = 0; k < eps.size(); k++) {
                results.add(StudyKit.result(configHash, agent, c.tier(), c.shift() == null ? "none" : c.stack().label(), k, 0, eps.get(k)));
            }
            if (c.shift() == null) {
                rows.add(row(agent, c.tier(), null, ts));
            } else {
                shiftRows.add(row(agent, c.tier(), c.shift(), ts));
                byTier.computeIfAbsent(c.tier(), k -> new ArrayList<>()).addAll(ts);
            }
        }
        phase.done();
        for (Tier tier : Tier.values()) {
            List<Trajectory> ts = byTier.get(tier.id());
            if (ts != null) rows.add(row(agent, tier.id(), null, ts));
        }
        rows.addAll(shiftRows);
        seconds.put("evaluate " + agent, StudyKit.since(t));
        Row st = rows.getFirst();
        progress.log(String.format(Locale.ROOT, "%s: static %.3f [%.3f, %.3f]; %d conditions in %.1f s", agent, st.successRate(),
                st.ciLow(), st.ciHigh(), conditions.size(), StudyKit.since(t)));
        return new Evaluated(rows, results);
    }

    private static Row row(String agent, String tier, String shift, List<Trajectory> ts) {
        PolicyEval.Figures f = PolicyEval.Figures.of(ts);
        return new Row(agent, tier, shift, f.successRate(), f.ciLow(), f.ciHigh(), f.refusalRate(), f.episodes(), ByShift.attackSuccessRate(ts));
    }

    /** The rows as {@code --json} prints them. */
    public static ObjectNode json(Result r) {
        ObjectNode o = Json.object();
        o.put("study", r.study());
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
