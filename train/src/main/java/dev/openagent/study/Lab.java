package dev.openagent.study;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.registry.Environments;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Demonstrations;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyConfig;
import dev.openagent.policy.PolicyEval;
import dev.openagent.policy.PolicyRunner;
import dev.openagent.policy.ShiftSampler;
import dev.openagent.policy.Trainer;
import dev.openagent.policy.TrainingTasks;
import dev.openagent.policy.Vocabulary;
import dev.openagent.results.EpisodeResult;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;
import dev.openagent.study.CrossEnvStudy.Excluded;
import dev.openagent.study.CrossEnvStudy.Kind;
import dev.openagent.study.CrossEnvStudy.Result;
import dev.openagent.study.CrossEnvStudy.Row;
import dev.openagent.study.CrossEnvStudy.Settings;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * One cross-environment study's run ({@link EnvStudies}): its settings, the environments that take
 * part, the training-beside-evaluation pipeline, the progress over its planned phases, and the
 * rows, episodes, training records and timings it collects.
 */
final class Lab {
    /** Share of the oracle's actions the policy must be able to express for an environment to take part. */
    static final double EXPRESSIBLE = 0.9;

    /** Test tasks of one environment: all of them, or only some difficulty levels (drawn in turn). */
    record Cell(String env, String difficulty, List<Integer> levels) {
        static Cell all(String env) { return new Cell(env, "all", List.of()); }

        List<TaskRequest> requests(int n, long seed) {
            TaskPlan plan = new TaskPlan(Split.TEST, n, seed, 0);
            List<TaskRequest> out = new ArrayList<>();
            for (int i = 0; i < n; i++) out.add(new TaskRequest(Split.TEST, plan.taskSeed(i), levels.isEmpty() ? 0 : levels.get(i % levels.size())));
            return out;
        }
    }

    /** A trained policy and where its checkpoint is. */
    record Trained(Policy policy, Path dir) {}

    final Kind kind;
    final Settings settings;
    final Path dir;
    final StudyProgress progress;
    final Consumer<List<EpisodeResult>> report;
    final List<String> envs;
    final List<Excluded> excluded = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    final StudyKit.Pipeline pipeline = new StudyKit.Pipeline();
    final Map<String, ObjectNode> training = new LinkedHashMap<>();
    final Map<String, Double> seconds = new ConcurrentHashMap<>();
    final List<String> order = new CopyOnWriteArrayList<>();
    /** Rows and episodes per evaluated policy, in submission order. */
    final Map<Integer, List<Row>> rows = new ConcurrentHashMap<>();
    final Map<Integer, List<EpisodeResult>> episodes = new ConcurrentHashMap<>();
    /** Trainings in the order planned (warm starts first). */
    private final CopyOnWriteArrayList<String> trainingOrder = new CopyOnWriteArrayList<>();
    /** The planned phases by name ("train X", "evaluate X"). */
    private final Map<String, StudyProgress.Phase> phases = new ConcurrentHashMap<>();

    Lab(Kind kind, Settings settings, Path dir, StudyProgress progress, Consumer<List<EpisodeResult>> report, List<String> requested) {
        this.kind = kind;
        this.settings = settings;
        this.dir = dir;
        this.progress = progress;
        this.report = report;
        if (new java.util.HashSet<>(requested).size() != requested.size()) {
            throw new UserInputException("an environment is listed twice: " + String.join(",", requested));
        }
        this.envs = supported(requested, excluded);
        for (Excluded e : excluded) {
            notes.add("excluded " + e.env() + ": " + e.reason());
            progress.log("excluded " + e.env() + ": " + e.reason());
        }
        if (envs.isEmpty()) throw new UserInputException("no environment the built-in policy supports among " + requested);
        if (settings.init() != null) Checkpoint.load(settings.init()).close(); // fail early on a bad checkpoint
    }

    /**
     * The environments among {@code requested} the built-in policy can be trained and scored on:
     * those where it can express (point at) at least 90% of the oracle's actions on training tasks.
     * The rest go to {@code excluded} with the reason.
     */
    static List<String> supported(List<String> requested, List<Excluded> excluded) {
        List<String> out = new ArrayList<>();
        try (Policy probe = Policy.create(PolicyConfig.tiny(), Vocabulary.open(), 0)) {
            for (String id : requested) {
                Environment env = Environments.get(id);
                Demonstrations demos = new Demonstrations(env, 0, ShiftSampler.of(List.of()), 0x5C0FE);
                int steps = 0;
                int expressible = 0;
                for (int i = 0; i < 10; i++) {
                    for (Demonstrations.Demo d : demos.next().steps()) {
                        steps++;
                        if (probe.target(d.view(), d.action(), d.task()).isPresent()) expressible++;
                    }
                }
                if (expressible >= EXPRESSIBLE * steps) {
                    out.add(id);
                } else {
                    excluded.add(new Excluded(id, String.format(Locale.ROOT,
                            "the built-in policy cannot express the oracle's actions in %s (%s interface): %d of %d demonstrated "
                                    + "steps are expressible, so it can neither be trained nor fairly scored there", id,
                            env.info().iface().id(), expressible, steps)));
                }
            }
        }
        return out;
    }

    void atLeast(int n) {
        if (envs.size() < n) {
            throw new UserInputException("the " + kind.id() + " study needs at least " + n + " environments the policy supports, got "
                    + envs + (excluded.isEmpty() ? "" : " (excluded: " + excluded.stream().map(Excluded::env).toList() + ")"));
        }
    }

    /**
     * How the studies across environments start: at least two environments, each one cell of all its tasks, and the
     * untrained policy planned on every cell; returns the cells.
     */
    List<Cell> acrossEnvironments() {
        atLeast(2);
        List<Cell> cells = envs.stream().map(Cell::all).toList();
        planEvaluation(CrossEnvStudy.UNTRAINED, cells);
        return cells;
    }

    // ---------------------------------------------------------------- planning (for the progress display)

    /** Plans a training run (and the SFT warm start an RL run without a start needs), before the study starts. */
    void planTraining(String name, TrainingTasks tasks, boolean fromCheckpoint, int steps) {
        if (settings.method() == Trainer.Method.RL && !fromCheckpoint && settings.init() == null) {
            trainingPhase(name + "-warmup", options(tasks, settings.warmupSteps(), Trainer.Method.SFT));
        }
        trainingPhase(name, options(tasks, steps, settings.method()));
    }

    /** Estimated CPU seconds of training on {@code tasks} for {@code steps} ({@link StudyProgress#trainingWork}). */
    double trainingWork(TrainingTasks tasks, int steps) {
        return StudyProgress.trainingWork(options(tasks, steps, settings.method()));
    }

    /** Plans an evaluation of a policy on every cell (its rows come in this order). */
    void planEvaluation(String name, List<Cell> cells) {
        evaluationPhase(name, cells);
        slot(name);
    }

    private StudyProgress.Phase trainingPhase(String name, Trainer.Options o) {
        trainingOrder.addIfAbsent(name);
        return phases.computeIfAbsent("train " + name, k -> progress.phase(k, StudyProgress.trainingWork(o), o.steps()));
    }

    private StudyProgress.Phase evaluationPhase(String name, List<Cell> cells) {
        long n = (long) settings.tasks() * settings.k();
        double work = cells.stream().mapToDouble(c -> StudyProgress.evaluationWork(Environments.get(c.env()).info(), n)).sum();
        return phases.computeIfAbsent("evaluate " + name, k -> progress.phase(k, work, n * cells.size()));
    }

    // ---------------------------------------------------------------- training and evaluation

    /**
     * Queues the training of one policy on {@code tasks} for {@code steps}, from the run {@code from}
     * (continuing, its vocabulary grown with the new data; it waits for that run) or else from the
     * settings' start, and saves it. RL without a start begins from an SFT warm start on the same
     * tasks. With {@code evaluated} false only the checkpoint is kept (the policy is closed).
     */
    Future<Trained> train(String name, TrainingTasks tasks, Future<Trained> from, int steps, boolean evaluated) {
        return pipeline.train(() -> {
            Path start = from != null ? StudyKit.get(from).dir() : settings.init();
            long t = System.nanoTime();
            if (settings.method() == Trainer.Method.RL && start == null) {
                Trained warm = train(name + "-warmup", tasks, null, settings.warmupSteps(), Trainer.Method.SFT);
                warm.policy().close();
                start = warm.dir();
            }
            Trained out = train(name, tasks, start, steps, settings.method());
            seconds.put("train " + name, StudyKit.since(t));
            if (evaluated) return out;
            out.policy().close();
            return new Trained(null, out.dir());
        });
    }

    private Trainer.Options options(TrainingTasks tasks, int steps, Trainer.Method method) {
        Settings s = settings;
        Trainer.Options o = Trainer.Options.of(method, tasks.envs().getFirst(), steps, s.seed()).withTasks(tasks)
                .withConfig(s.config()).withAlpha(method == Trainer.Method.RL ? 0 : s.alpha());
        return method == Trainer.Method.RL ? o : o.withBatch(s.batch(), o.lr());
    }

    private Trained train(String name, TrainingTasks tasks, Path start, int steps, Trainer.Method method) {
        Trainer.Options o = options(tasks, steps, method);
        if (start != null) o = o.continuing(start);
        progress.log(kind.id() + ": training " + name + " (" + method.id() + " on " + tasks.label() + ", " + steps
                + (method == Trainer.Method.RL ? " iterations" : " steps") + (start == null ? "" : ", from " + start.getFileName()) + ")");
        StudyProgress.Phase phase = trainingPhase(name, o);
        Trainer.Result r = Trainer.train(o, line -> progress.log("  " + line), phase::advanceTo);
        phase.done();
        Path to = dir.resolve("policies").resolve(name.replaceAll("[^A-Za-z0-9._-]", "_"));
        Checkpoint.save(r.policy(), to, r.info());
        synchronized (training) {
            training.put(name, r.info());
        }
        return new Trained(r.policy(), to);
    }

    void evaluateUntrained(List<Cell> cells) {
        Policy p = Policy.create(settings.config(), Vocabulary.open(), Seeds.mix(settings.seed(), 0x0B));
        evaluate(CrossEnvStudy.UNTRAINED, null, "-", CompletableFuture.completedFuture(new Trained(p, null)), cells);
    }

    /**
     * Queues the evaluation of a policy (once its training is done) on every cell; it runs beside the
     * next trainings and closes the policy after. Rows come out in the order evaluations were planned.
     */
    void evaluate(String name, Integer stage, String trainedOn, Future<Trained> trained, List<Cell> cells) {
        int slot = slot(name);
        StudyProgress.Phase phase = evaluationPhase(name, cells);
        pipeline.evaluate(() -> {
            Policy policy = StudyKit.get(trained).policy();
            long t = System.nanoTime();
            List<Row> out = new ArrayList<>();
            List<EpisodeResult> eps = new ArrayList<>();
            try (policy) {
                for (Cell c : cells) {
                    List<PolicyRunner.Episode> done = run(policy, name, c, phase);
                    Score score = Score.of(done, settings.k());
                    out.add(new Row(name, stage, trainedOn, c.env(), c.difficulty(), score));
                    String hash = "study " + kind.id() + " " + settings.budget() + " seed " + settings.seed() + " " + c.difficulty();
                    for (int i = 0; i < done.size(); i++) {
                        eps.add(StudyKit.result(hash, name, EpisodeResult.STATIC, "none", i / settings.k(), i % settings.k(), done.get(i)));
                    }
                }
            }
            phase.done();
            rows.put(slot, out);
            episodes.put(slot, eps);
            seconds.put("evaluate " + name, StudyKit.since(t));
            StringBuilder line = new StringBuilder(kind.id() + ": " + name + " →");
            for (Row r : out) line.append(String.format(Locale.ROOT, " %s/%s %.3f", r.env(), r.difficulty(), r.score().successRate()));
            progress.log(line.toString());
        });
    }

    /** An evaluation's place among the rows: the order it was planned in (an unplanned one goes last). */
    private int slot(String name) {
        int i = order.indexOf(name);
        if (i >= 0) return i;
        order.add(name);
        return order.size() - 1;
    }

    private List<PolicyRunner.Episode> run(Policy policy, String name, Cell c, StudyProgress.Phase phase) {
        Environment env = Environments.get(c.env());
        List<PolicyRunner.Job> jobs = new ArrayList<>();
        for (TaskRequest r : c.requests(settings.tasks(), settings.seed())) {
            for (int trial = 0; trial < settings.k(); trial++) jobs.add(new PolicyRunner.Job(env, ShiftStack.NONE, r));
        }
        SplittableRandom sampler = settings.k() > 1 ? new SplittableRandom(Seeds.mix(settings.seed(), c.env().hashCode())) : null;
        return PolicyRunner.run(policy, name, jobs, PolicyEval.PARALLEL, sampler, false, e -> phase.advance(1));
    }

    List<Row> rows() {
        return new TreeMap<>(rows).values().stream().flatMap(List::stream).toList();
    }

    List<EpisodeResult> episodes() {
        return new TreeMap<>(episodes).values().stream().flatMap(List::stream).toList();
    }

    Result result(List<Row> rows, CrossEnvStudy.Grid grid, ObjectNode summary) {
        report.accept(episodes());
        Map<String, Double> ordered = new LinkedHashMap<>();
        new TreeMap<>(seconds).forEach(ordered::put);
        // Trainings finish in any order on two threads; the record lists them in the order planned.
        Map<String, ObjectNode> trained = new LinkedHashMap<>();
        for (String name : trainingOrder) if (training.containsKey(name)) trained.put(name, training.get(name));
        training.forEach(trained::putIfAbsent);
        return new Result(kind, settings, envs, excluded, rows, grid, summary, notes, trained, ordered);
    }
}
