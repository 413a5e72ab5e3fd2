package dev.openagent.adapt;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.curve.CurveSink;
import dev.openagent.frontier.Focus;
import dev.openagent.json.Json;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyEval;
import dev.openagent.policy.PolicyEval.Figures;
import dev.openagent.policy.PolicyRunner;
import dev.openagent.policy.Trainer;
import dev.openagent.registry.Catalog;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.episode.Trajectory;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import dev.openagent.study.Findings;
import dev.openagent.study.PaperStudy;
import dev.openagent.study.PaperStudy.Finding;
import dev.openagent.study.StudyProgress;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.stream.Stream;

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
                         Map<String, ObjectNode> training, List<Finding> findings, List<String> notes, Map<String, Double> seconds) {
        public Row row(String scenario, String start, String method) {
            return rows.stream().filter(r -> r.scenario().equals(scenario) && r.start().equals(start) && r.method().equals(method))
                    .findFirst().orElseThrow();
        }
    }

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
        List<Job> jobs = new ArrayList<>();
        // SFT's repairs first: they seldom recover early, so the short ones (PAFT's, often recovered in a round) end the study.
        for (Start st : Start.values()) for (Scenario s : scenarios) for (Method m : Method.values()) jobs.add(new Job(s, st, m));

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
                List<Condition> conditions = new ArrayList<>();
                conditions.add(new Condition("static", ShiftStack.NONE, budget.staticTasks()));
                for (Scenario s : scenarios) conditions.add(new Condition(s.spec(), s.stack(), budget.targetTasks()));
                starts.put(st.id, evaluate(p, st.id, env, conditions, seed, 2, before));
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
            for (Job j : jobs) {
                futures.add(pool.submit(() -> {
                    Row r = repair(j, budget, seed, scenarios, startDirs.get(j.start()), starts.get(j.start().id), env,
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
        return new Result(budget.name(), seed, List.copyOf(scenarios), starts, rows, training, findings(rows, scenarios, budget), notes, seconds);
    }

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

    /**
     * Runs one repair: rounds until recovered or the budget is spent, then the static and other-shift evaluations of
     * the policy it stopped with (the start itself when it was already recovered).
     */
    static Row repair(Job j, Budget budget, long seed, List<Scenario> scenarios, Path startDir, Map<String, Figures> start,
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
        float offlineLr = Adaptation.defaultLr(startDir, ENV);
        OnlineAdaptation.Settings online = new OnlineAdaptation.Settings(startDir, ENV, j.scenario().stack(), Split.TRAIN, 0,
                budget.episodes() / budget.groupSize(), budget.groupSize(), 1, ONLINE_LR, seed2, j.label());
        Focus targets = Adaptation.applicable(Adaptation.targets(j.scenario().spec(), ENV), env, new ArrayList<>());
        for (int round = 0; recovered == null && round < budget.points().size(); round++) {
            int point = budget.points().get(round);
            int episodes = (int) (point - spent);
            if (j.method() == Method.OFFLINE) {
                Path out = dir.resolve(String.format(Locale.ROOT, "round-%d", round + 1));
                Adaptation.Settings s = new Adaptation.Settings(current, ENV, targets, j.scenario().spec(), episodes, Adaptation.DEFAULT_REPLAY,
                        Seeds.mix(seed2, round), 1, offlineLr, 1);
                Trainer.Result r = Adaptation.train(s, targets, line -> {}, step -> {});
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
    private static Map<String, Figures> evaluate(Policy policy, String agent, Environment env, List<Condition> conditions, long seed,
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

    // ---------------------------------------------------------------- findings

    public static final String HOLDS = Findings.HOLDS;
    public static final String FAILS = Findings.FAILS;
    public static final String MIXED = Findings.PARTLY;

    /** The claims the issue names, each checked against the rows. */
    static List<Finding> findings(List<Row> rows, List<Scenario> scenarios, Budget budget) {
        List<Finding> out = new ArrayList<>();
        out.add(compare("PAFT pre-training shortens recovery (PAFT's start recovers in fewer episodes than SFT's, by the same repair)",
                rows, scenarios, Start.PAFT.id, Start.SFT.id, true, budget));
        out.add(compare("Targeted offline adaptation recovers in fewer episodes than online RL (from the same start)",
                rows, scenarios, Method.OFFLINE.id, Method.ONLINE.id, false, budget));
        out.add(forgetting("Targeted adaptation with replay loses at most 2 points on static", rows, Method.OFFLINE.id, 0.02));
        out.add(forgetting("Online RL loses at most 2 points on static", rows, Method.ONLINE.id, 0.02));
        out.add(others("Repairing one shift keeps the other tiers (the other scenarios' shifts pooled, at most 2 points lost)", rows));
        return out;
    }

    /**
     * Compares recovery by {@code a} against {@code b} over each pair of rows that differ only in the start
     * ({@code byStart}) or only in the method (a budget run out counts as later than any recovery): holds when
     * {@code a} is sooner in some pairs and later in none, does not hold when it is never sooner, else mixed.
     */
    private static Finding compare(String claim, List<Row> rows, List<Scenario> scenarios, String a, String b, boolean byStart, Budget budget) {
        int sooner = 0, later = 0, same = 0;
        List<String> evidence = new ArrayList<>();
        for (Scenario s : scenarios) {
            for (String other : byStart ? List.of(Method.OFFLINE.id, Method.ONLINE.id) : List.of(Start.SFT.id, Start.PAFT.id)) {
                Row ra = byStart ? find(rows, s.name(), a, other) : find(rows, s.name(), other, a);
                Row rb = byStart ? find(rows, s.name(), b, other) : find(rows, s.name(), other, b);
                int c = Double.compare(ra.recoveryOrInfinity(), rb.recoveryOrInfinity());
                if (c < 0) sooner++;
                else if (c > 0) later++;
                else same++;
                evidence.add(s.name() + "/" + other + " " + recovery(ra, budget) + " vs " + recovery(rb, budget));
            }
        }
        String verdict = sooner > 0 && later == 0 ? HOLDS : sooner == 0 ? FAILS : MIXED;
        return new Finding(claim, verdict, String.format(Locale.ROOT, "%s sooner in %d pairs, later in %d, the same in %d (%s against %s: %s)",
                a, sooner, later, same, a, b, String.join("; ", evidence)));
    }

    private static Finding forgetting(String claim, List<Row> rows, String method, double limit) {
        List<Row> trained = rows.stream().filter(r -> r.method().equals(method) && r.episodes() > 0).toList();
        if (trained.isEmpty()) return new Finding(claim, Findings.UNMEASURED, "no " + method + " repair trained (every start was already recovered)");
        double mean = trained.stream().mapToDouble(Row::staticChange).average().orElseThrow();
        double worst = trained.stream().mapToDouble(Row::staticChange).min().orElseThrow();
        long within = trained.stream().filter(r -> r.staticChange() >= -limit).count();
        String verdict = mean >= -limit && within == trained.size() ? HOLDS : mean >= -limit ? MIXED : FAILS;
        return new Finding(claim, verdict, String.format(Locale.ROOT,
                "static change over the %d %s repairs that trained: mean %+.3f, worst %+.3f, %d within %.0f points (%s)", trained.size(), method,
                mean, worst, within, limit * 100, String.join("; ", trained.stream().map(r -> r.scenario() + "/" + r.start() + " "
                        + String.format(Locale.ROOT, "%+.3f", r.staticChange())).toList())));
    }

    private static Finding others(String claim, List<Row> rows) {
        List<Row> trained = rows.stream().filter(r -> r.episodes() > 0).toList();
        if (trained.isEmpty()) return new Finding(claim, Findings.UNMEASURED, "no repair trained");
        List<String> evidence = new ArrayList<>();
        for (Method m : Method.values()) {
            List<Row> mine = trained.stream().filter(r -> r.method().equals(m.id)).toList();
            if (mine.isEmpty()) continue;
            evidence.add(String.format(Locale.ROOT, "%s: mean %+.3f, worst %+.3f over %d repairs", m.id,
                    mine.stream().mapToDouble(Row::othersChange).average().orElseThrow(), mine.stream().mapToDouble(Row::othersChange).min().orElseThrow(),
                    mine.size()));
        }
        double mean = trained.stream().mapToDouble(Row::othersChange).average().orElseThrow();
        long within = trained.stream().filter(r -> r.othersChange() >= -0.02).count();
        String verdict = within == trained.size() ? HOLDS : mean >= -0.02 ? MIXED : FAILS;
        return new Finding(claim, verdict, String.join("; ", evidence));
    }

    private static Row find(List<Row> rows, String scenario, String start, String method) {
        return rows.stream().filter(r -> r.scenario().equals(scenario) && r.start().equals(start) && r.method().equals(method)).findFirst().orElseThrow();
    }

    /** A row's recovery as the tables print it: {@code 256}, or {@code >1024} when the budget ran out. */
    public static String recovery(Row r, Budget budget) {
        return r.recoveredAt() == null ? ">" + r.episodes() : Long.toString(r.recoveredAt());
    }

    // ---------------------------------------------------------------- JSON

    public static ObjectNode json(Result r) {
        ObjectNode o = Json.object();
        o.put("study", ID);
        o.put("budget", r.budget());
        o.put("seed", r.seed());
        o.put("env", ENV);
        o.put("recovered_within", RECOVERED);
        o.set("scenarios", Json.tree(r.scenarios()));
        o.set("starts", Json.tree(r.starts()));
        o.set("rows", Json.tree(r.rows()));
        o.set("findings", Json.tree(r.findings()));
        o.set("training", Json.tree(r.training()));
        o.set("notes", Json.tree(r.notes()));
        o.set("seconds", Json.tree(r.seconds()));
        return o;
    }

    // ---------------------------------------------------------------- helpers

    static String f3(Figures f) {
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", f.successRate(), f.ciLow(), f.ciHigh());
    }

    private static double since(long t0) { return Math.round((System.nanoTime() - t0) / 1e7) / 100.0; }

    private static <T> T get(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) throw re;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        }
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + dir + ": " + e.getMessage(), e);
        }
    }
}
