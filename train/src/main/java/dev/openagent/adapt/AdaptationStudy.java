package dev.openagent.adapt;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyEval;
import dev.openagent.policy.PolicyEval.Figures;
import dev.openagent.policy.Trainer;
import dev.openagent.registry.Catalog;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Environment;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import dev.openagent.study.PaperStudy;
import dev.openagent.study.PaperStudy.Finding;
import dev.openagent.study.StudyProgress;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.openagent.study.StudyKit.get;
import static dev.openagent.study.StudyKit.since;

/**
 * {@code openagent study adaptation}: after a persistent shift appears, how many episodes does an agent need to recover
 * to within {@link #RECOVERED} of its static success, and what does it forget meanwhile? On {@code poi}, from two
 * starting points trained as the paper study trains them (SFT, and PAFT at alpha 0.3 continuing from it), under one
 * shift per tier and one the watch named, by two repairs: targeted offline adaptation ({@link Adaptation}: perturbed
 * demonstrations of the shift with a replay share of static ones, round by round) and online RL from outcome reward
 * ({@link OnlineAdaptation}: a stream of tasks under the shift, one update per group). After each round (or at the
 * same numbers of episodes of the stream) the policy is evaluated greedily on the same test tasks under the shift; it
 * stops at the first that is within {@link #RECOVERED} of the start's static success, or at the budget. Then its
 * static success and its success under the other scenarios' shifts (one per tier) say what the repair cost.
 */
public final class AdaptationStudy {
    public static final String ID = "adaptation";
    public static final String ENV = PaperStudy.ENV;
    /** Recovered: success under the shift at least the start's static success minus this (the 5 points). */
    public static final double RECOVERED = 0.05;
    /**
     * Online RL's learning rate for trained starting points: 3e-4 held a trained policy where 1e-3 and above made it
     * worse (docs/adaptation.md, *Measured curves*).
     */
    public static final float ONLINE_LR = 3e-4f;

    /**
     * A persistent shift the study repairs.
     *
     * @param name   how the tables name it: its tier, or {@code watch}
     * @param spec   the shift stack, as {@code eval --shift} takes it
     * @param source where it came from, for the record
     */
    public record Scenario(String name, String spec, String source) {
        public Scenario {
            ShiftStack stack = ShiftSpec.parseStack(spec);
            if (stack.isStatic()) throw new IllegalArgumentException("a scenario needs a shift, not '" + spec + "'");
        }

        public ShiftStack stack() { return ShiftSpec.parseStack(spec); }

        public String tier() { return stack().tier().id(); }

        public String label() { return name + " (" + spec + ")"; }
    }

    /**
     * One shift per tier, each one that breaks the quick paper study's SFT policy (success under it 0.21-0.74 against
     * 0.98 static) and that PAFT's recipe covers partly or not at all (docs/studies.md).
     */
    public static final List<Scenario> TIERS = List.of(
            new Scenario("perception", "tool.name-noise", "one shift per tier"),
            new Scenario("interaction", "obs.runtime-error", "one shift per tier"),
            new Scenario("reasoning", "logic.conflict", "one shift per tier"),
            new Scenario("internalization", "tool.removal", "one shift per tier"),
            new Scenario("security", "obs.injection:severity=3", "one shift per tier"));

    /** The starting points: trained by the study, or a paper study's checkpoints. */
    public enum Start {
        SFT("sft", "sft"), PAFT("paft", "paft-0.3");

        public final String id;
        /** Its directory under a paper study's {@code policies/}. */
        final String paperName;

        Start(String id, String paperName) {
            this.id = id;
            this.paperName = paperName;
        }
    }

    /** The repairs compared. */
    public enum Method {
        OFFLINE("offline", "targeted offline (adapt, replay 0.3)"), ONLINE("online", "online RL (outcome reward)");

        public final String id;
        public final String label;

        Method(String id, String label) {
            this.id = id;
            this.label = label;
        }
    }

    /**
     * How much to train and evaluate.
     *
     * @param sftSteps    SFT steps of the SFT starting point (from a pool of {@code taskPool} training tasks)
     * @param paftSteps   PAFT steps continuing from it (the paper study's recipe)
     * @param points      cumulative episodes after which the repair is evaluated; the last is the budget
     * @param groupSize   online RL's episodes per update (divides every point)
     * @param targetTasks test tasks under each shift
     * @param staticTasks static test tasks
     * @param margin      recovered: success under the shift at least the start's static success minus this
     *                    ({@link #RECOVERED}; the tiny budget's is negative, so that every round runs)
     */
    public record Budget(String name, int sftSteps, int taskPool, int paftSteps, List<Integer> points, int groupSize, int targetTasks,
                         int staticTasks, double margin) {
        public Budget {
            points = List.copyOf(points);
            for (int i = 0; i < points.size(); i++) {
                if (points.get(i) % groupSize != 0 || (i > 0 && points.get(i) <= points.get(i - 1))) {
                    throw new IllegalArgumentException("points must increase and be multiples of the group size: " + points);
                }
            }
        }

        /**
         * Minutes on two cores: the starting points at smaller budgets than the paper study's quick ones (SFT 500 steps
         * against 700, PAFT 300 against 600), repairs up to 512 episodes (at 1,024 the study took about twice as long).
         */
        public static Budget quick() {
            return new Budget("quick", 500, 1000, 300, List.of(64, 128, 256, 512), 32, 50, 100, RECOVERED);
        }

        public static Budget full() {
            return new Budget("full", 700, 1000, 600, List.of(128, 256, 512, 1024, 2048, 4096), 32, 100, 200, RECOVERED);
        }

        /** Seconds, for tests: every row, curve and finding, numbers that mean nothing; nothing counts as recovered, so every round runs. */
        public static Budget tiny() {
            return new Budget("tiny", 6, 16, 4, List.of(4, 8), 4, 4, 4, -1.0);
        }

        public int episodes() { return points.getLast(); }
    }

    /** The repair evaluated after {@code episodes} episodes (0: the start) under its shift. */
    public record Point(long episodes, Figures target) {}

    /**
     * One repair: a scenario, a starting point, a method.
     *
     * @param recoveredAt  episodes at the first point within {@link #RECOVERED} of the start's static success (0: it
     *                     already was), or null when the budget ran out first
     * @param others       the other scenarios' shifts pooled (the other tiers), before and after
     * @param episodes     episodes the repair spent (the point it stopped at)
     */
    public record Row(String scenario, String spec, String tier, String start, String method,
                      @JsonProperty("static_before") Figures staticBefore, @JsonProperty("static_after") Figures staticAfter,
                      @JsonProperty("target_before") Figures targetBefore, @JsonProperty("target_after") Figures targetAfter,
                      @JsonProperty("others_before") Figures othersBefore, @JsonProperty("others_after") Figures othersAfter,
                      @JsonProperty("recovered_at") Long recoveredAt, long episodes, List<Point> curve, double seconds) {
        public double staticChange() { return PolicyEval.round(staticAfter.successRate() - staticBefore.successRate()); }

        public double othersChange() { return PolicyEval.round(othersAfter.successRate() - othersBefore.successRate()); }

        /** Recovery in episodes, the budget run out counted as infinitely many (for comparing rows). */
        double recoveryOrInfinity() { return recoveredAt == null ? Double.POSITIVE_INFINITY : recoveredAt; }
    }

    /**
     * @param starts   each starting point's figures before any repair: static, then each scenario
     * @param training how each starting point was made ({@code training.json}, or where it was read from)
     */
    public record Result(String budget, long seed, List<Scenario> scenarios, Map<String, Map<String, Figures>> starts, List<Row> rows,
                         Map<String, ObjectNode> training, List<Finding> findings, List<String> notes, Map<String, Double> seconds,
                         double recoveredWithin) {}

    private AdaptationStudy() {}

    /**
     * Runs the study into {@code dir}: the starting points under {@code policies/} (trained, unless {@code from} names a
     * paper study's directory whose {@code policies/sft} and {@code policies/paft-0.3} are used), each repair's rounds
     * under {@code repairs/}.
     */
    public static Result run(Budget budget, long seed, List<Scenario> scenarios, Path from, Path dir, StudyProgress progress) {
        long t0 = System.nanoTime();
        Environment env = Environments.get(ENV);
        List<String> notes = new ArrayList<>();
        for (Scenario s : scenarios) {
            s.stack().notApplicable(env.info()).ifPresent(why -> {
                throw new IllegalArgumentException("scenario " + s.label() + " does not apply to " + ENV + ": " + why);
            });
        }
        Map<String, Double> seconds = new LinkedHashMap<>();
        Map<String, ObjectNode> training = new LinkedHashMap<>();
        Map<Start, Path> startDirs = new LinkedHashMap<>();
        List<Repair.Job> jobs = new ArrayList<>();
        // SFT's repairs first: they seldom recover early, so the short ones (PAFT's, often recovered in a round) end the study.
        for (Start st : Start.values()) for (Scenario s : scenarios) for (Method m : Method.values()) jobs.add(new Repair.Job(s, st, m));

        // Phases, declared up front so the ETA covers the whole study.
        Trainer.Options sft = Trainer.Options.of(Trainer.Method.SFT, ENV, budget.sftSteps(), seed).withTaskPool(budget.taskPool());
        Path sftDir = dir.resolve("policies/sft");
        Trainer.Options paft = Trainer.Options.of(Trainer.Method.PAFT, ENV, budget.paftSteps(), seed).withAlpha(0.3).withInit(sftDir)
                .withTaskPool(budget.taskPool()).withMix(PaperStudy.PAFT_MIX);
        paft = paft.withBatch(paft.batch(), PaperStudy.PAFT_LR);
        StudyProgress.Phase trainSft = from == null ? progress.phase("train sft", StudyProgress.trainingWork(sft), sft.steps()) : null;
        StudyProgress.Phase trainPaft = from == null ? progress.phase("train paft", StudyProgress.trainingWork(paft), paft.steps()) : null;
        long beforeEpisodes = (long) Start.values().length * (budget.staticTasks() + (long) scenarios.size() * budget.targetTasks());
        StudyProgress.Phase before = progress.phase("evaluate the starting points", StudyProgress.evaluationWork(env.info(), beforeEpisodes), beforeEpisodes);
        double perRepair = StudyProgress.trainingWork(Trainer.Options.of(Trainer.Method.PAFT, ENV, Math.max(1, budget.episodes() / 16), seed))
                + StudyProgress.evaluationWork(env.info(), (long) budget.points().size() * budget.targetTasks() + budget.staticTasks()
                + (long) scenarios.size() * budget.targetTasks());
        StudyProgress.Phase repairs = progress.phase("repairs", perRepair * jobs.size(), jobs.size());

        if (from == null) {
            startDirs.put(Start.SFT, train("sft", sft, sftDir, trainSft, progress, training, seconds));
            startDirs.put(Start.PAFT, train("paft", paft, dir.resolve("policies/paft"), trainPaft, progress, training, seconds));
        } else {
            for (Start st : Start.values()) {
                Path p = from.resolve("policies").resolve(st.paperName);
                if (!Files.isRegularFile(p.resolve("training.json"))) {
                    throw new dev.openagent.UserInputException("--from " + from + ": no checkpoint " + p + " (a paper study's directory has policies/sft and policies/paft-0.3)");
                }
                startDirs.put(st, p);
                ObjectNode made = Checkpoint.training(p).deepCopy();
                made.put("read_from", p.toString());
                training.put(st.id, made);
            }
            notes.add("starting points read from " + from + " (not trained by this run)");
        }

        // Each starting point before any repair: static and every scenario, on the test tasks every row reuses.
        long t = System.nanoTime();
        Map<String, Map<String, Figures>> starts = new LinkedHashMap<>();
        for (Start st : Start.values()) {
            try (Policy p = Checkpoint.load(startDirs.get(st))) {
                List<Repair.Condition> conditions = new ArrayList<>();
                conditions.add(new Repair.Condition("static", ShiftStack.NONE, budget.staticTasks()));
                for (Scenario s : scenarios) conditions.add(new Repair.Condition(s.spec(), s.stack(), budget.targetTasks()));
                starts.put(st.id, Repair.evaluate(p, st.id, env, conditions, seed, 2, before));
            }
            progress.log(String.format(Locale.ROOT, "%s before: static %s; %s", st.id, f3(starts.get(st.id).get("static")),
                    String.join(", ", scenarios.stream().map(s -> s.name() + " " + f3(starts.get(st.id).get(s.spec()))).toList())));
        }
        before.done();
        seconds.put("evaluate the starting points", since(t));

        // The repairs, two at a time (one core each): each is a function of its own seeds, so the order does not matter.
        t = System.nanoTime();
        Path repairsDir = dir.resolve("repairs");
        List<Row> rows = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Row>> futures = new ArrayList<>();
            for (Repair.Job j : jobs) {
                futures.add(pool.submit(() -> {
                    Row r = Repair.run(j, budget, seed, scenarios, startDirs.get(j.start()), starts.get(j.start().id), env,
                            repairsDir.resolve(j.dirName()), progress);
                    repairs.advance(1);
                    return r;
                }));
            }
            for (Future<Row> f : futures) rows.add(get(f));
        } finally {
            pool.shutdownNow();
        }
        repairs.done();
        // The table reads scenario by scenario: each scenario's four repairs together.
        List<String> order = scenarios.stream().map(Scenario::name).toList();
        rows.sort(Comparator.comparingInt((Row x) -> order.indexOf(x.scenario())).thenComparing(x -> Start.valueOf(x.start().toUpperCase(Locale.ROOT)))
                .thenComparing(x -> Method.valueOf(x.method().toUpperCase(Locale.ROOT))));
        seconds.put("repairs", since(t));
        seconds.put("total", since(t0));
        return new Result(budget.name(), seed, List.copyOf(scenarios), starts, rows, training, AdaptationFindings.check(rows, scenarios), notes, seconds, budget.margin());
    }

    private static Path train(String name, Trainer.Options o, Path out, StudyProgress.Phase phase, StudyProgress progress,
                              Map<String, ObjectNode> training, Map<String, Double> seconds) {
        long t = System.nanoTime();
        progress.log("training " + name);
        Trainer.Result r = Trainer.train(o, line -> progress.log(name + ": " + line), phase::advanceTo, 2);
        phase.done();
        try (Policy p = r.policy()) {
            Checkpoint.save(p, out, r.info());
        }
        training.put(name, r.info());
        seconds.put("train " + name, since(t));
        return out;
    }

    // ---------------------------------------------------------------- helpers

    static String f3(Figures f) {
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", f.successRate(), f.ciLow(), f.ciHigh());
    }
}
