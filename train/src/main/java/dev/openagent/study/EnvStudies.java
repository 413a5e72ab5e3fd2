package dev.openagent.study;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.policy.Trainer;
import dev.openagent.policy.TrainingTasks;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Environment;
import dev.openagent.study.CrossEnvStudy.Kind;
import dev.openagent.study.CrossEnvStudy.Settings;
import dev.openagent.study.CrossEnvStudy.Row;
import dev.openagent.study.CrossEnvStudy.Grid;
import dev.openagent.study.CrossEnvStudy.Result;
import dev.openagent.study.Lab.Cell;
import dev.openagent.study.Lab.Trained;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The cross-environment studies of Xi et al. (arXiv 2603.12011) on the built-in policy:
 * <ul>
 *   <li>{@link #difficulty}: within one environment, easy tasks to hard ones (and hard-only, mixed, a curriculum);</li>
 *   <li>{@link #transfer}: train on each environment, test on every one (the transfer matrix);</li>
 *   <li>{@link #sequential}: train on environments one after another, test all after each stage (forgetting, forward transfer);</li>
 *   <li>{@link #mixture}: one run on a mixture, beside sequential and single-environment training at the same total budget.</li>
 * </ul>
 * Every policy is evaluated on test-split tasks (disjoint entity seeds from training) and scored by
 * {@link Score}: avg@k with a 95% interval, turns and tokens per episode, the failure taxonomy.
 * Only environments whose oracle actions the policy can express take part ({@link Lab#supported});
 * the others are listed as excluded with the reason, never scored.
 */
public final class EnvStudies {
    private EnvStudies() {}

    // ---------------------------------------------------------------- protocols

    /** Runs a protocol: {@code envs} is the one environment of a difficulty study, else the environments in order. */
    public static Result run(Kind kind, List<String> envs, Settings s, Path dir, StudyProgress progress, Consumer<List<EpisodeResult>> report) {
        return switch (kind) {
            case DIFFICULTY -> {
                if (envs.size() != 1) throw new UserInputException("the difficulty study runs on one environment, got " + envs);
                yield difficulty(envs.getFirst(), s, dir, progress, report);
            }
            case TRANSFER -> transfer(envs, s, dir, progress, report);
            case SEQUENTIAL -> sequential(envs, s, dir, progress, report);
            case MIXTURE -> mixture(envs, s, dir, progress, report);
        };
    }

    public static Result difficulty(String env, Settings s, Path dir, StudyProgress progress, Consumer<List<EpisodeResult>> report) {
        Lab lab = new Lab(Kind.DIFFICULTY, s, dir, progress, report, List.of(env));
        String only = lab.envs.getFirst();
        Environment e = Environments.get(only);
        TrainingTasks easy = TrainingTasks.of(only).difficulty(1, CrossEnvStudy.EASY_MAX);
        TrainingTasks hard = TrainingTasks.of(only).difficulty(CrossEnvStudy.HARD_MIN, java.util.Collections.max(e.info().difficulties()));
        List<Cell> cells = List.of(new Cell(only, "easy", easy.levels(e.info())), new Cell(only, "hard", hard.levels(e.info())));
        // The curriculum spends the same steps: half on easy tasks, then half on hard ones from there.
        int first = Math.max(1, s.steps() / 2);
        lab.planEvaluation(CrossEnvStudy.UNTRAINED, cells);
        for (String name : List.of("easy-only", "hard-only", "mixed")) {
            lab.planTraining(name, name.equals("easy-only") ? easy : name.equals("hard-only") ? hard : TrainingTasks.of(only), false, s.steps());
            lab.planEvaluation(name, cells);
        }
        lab.planTraining("curriculum-easy", easy, false, first);
        lab.planTraining("curriculum", hard, true, Math.max(1, s.steps() - first));
        lab.planEvaluation("curriculum", cells);
        try (StudyKit.Pipeline pipe = lab.pipeline) {
            lab.evaluateUntrained(cells);
            var easyOnly = lab.train("easy-only", easy, null, s.steps(), true);
            var hardOnly = lab.train("hard-only", hard, null, s.steps(), true);
            var mixed = lab.train("mixed", TrainingTasks.of(only), null, s.steps(), true);
            var warm = lab.train("curriculum-easy", easy, null, first, false);
            var cur = lab.train("curriculum", hard, warm, Math.max(1, s.steps() - first), true);
            lab.evaluate("easy-only", null, easy.label(), easyOnly, cells);
            lab.evaluate("hard-only", null, hard.label(), hardOnly, cells);
            lab.evaluate("mixed", null, only + " (every level)", mixed, cells);
            lab.evaluate("curriculum", null, easy.label() + " then " + hard.label(), cur, cells);
            pipe.await();
        }
        List<Row> rows = lab.rows();
        ObjectNode summary = Json.object();
        ObjectNode table = summary.putObject("table");
        for (Row r : rows) table.with(r.policy()).put(r.difficulty(), r.score().successRate());
        Double base = table.path(CrossEnvStudy.UNTRAINED).path("hard").asDouble();
        summary.put("easy_to_hard_gain", TransferMath.round(table.path("easy-only").path("hard").asDouble() - base));
        summary.put("hard_only_gain", TransferMath.round(table.path("hard-only").path("hard").asDouble() - base));
        Grid grid = grid("policy", "test tasks", rows, Row::policy, Row::difficulty);
        return lab.result(rows, grid, summary);
    }

    public static Result transfer(List<String> envs, Settings s, Path dir, StudyProgress progress, Consumer<List<EpisodeResult>> report) {
        Lab lab = new Lab(Kind.TRANSFER, s, dir, progress, report, envs);
        List<Cell> cells = lab.acrossEnvironments();
        for (String e : lab.envs) {
            lab.planTraining(e, TrainingTasks.of(e), false, s.steps());
            lab.planEvaluation(e, cells);
        }
        try (StudyKit.Pipeline pipe = lab.pipeline) {
            lab.evaluateUntrained(cells);
            // The costliest training first (household's prose): queued last, it would end alone on one core.
            // Evaluations wait for their policy in the order queued, so the cheapest trainings' come first.
            List<String> costliestFirst = lab.envs.stream()
                    .sorted(Comparator.comparingDouble((String e) -> -lab.trainingWork(TrainingTasks.of(e), s.steps()))).toList();
            Map<String, Future<Trained>> trained = new LinkedHashMap<>();
            for (String e : costliestFirst) trained.put(e, lab.train(e, TrainingTasks.of(e), null, s.steps(), true));
            for (String e : costliestFirst.reversed()) lab.evaluate(e, null, e, trained.get(e), cells);
            pipe.await();
        }
        List<Row> rows = lab.rows();
        Map<String, Map<String, Double>> matrix = successes(rows, r -> !r.policy().equals(CrossEnvStudy.UNTRAINED));
        Map<String, Double> untrained = successes(rows, r -> r.policy().equals(CrossEnvStudy.UNTRAINED)).get(CrossEnvStudy.UNTRAINED);
        Map<String, Map<String, Double>> gains = TransferMath.gains(matrix, untrained);
        ObjectNode summary = Json.object();
        summary.set("matrix", Json.tree(matrix));
        summary.set("untrained", Json.tree(untrained));
        summary.set("gains", Json.tree(gains));
        summary.putPOJO("held_in_gain", TransferMath.heldIn(gains));
        summary.putPOJO("held_out_gain", TransferMath.heldOut(gains));
        Grid grid = grid("trained on", "tested on", rows.stream().filter(r -> !r.policy().equals(CrossEnvStudy.UNTRAINED)).toList(), Row::policy, Row::env);
        return lab.result(rows, grid, summary);
    }

    public static Result sequential(List<String> order, Settings s, Path dir, StudyProgress progress, Consumer<List<EpisodeResult>> report) {
        Lab lab = new Lab(Kind.SEQUENTIAL, s, dir, progress, report, order);
        List<Cell> cells = lab.acrossEnvironments();
        planStages(lab, "stage", cells, true, false);
        try (StudyKit.Pipeline pipe = lab.pipeline) {
            lab.evaluateUntrained(cells);
            stages(lab, "stage", cells, true, null);
            pipe.await();
        }
        List<Row> rows = lab.rows();
        List<Map<String, Double>> after = new ArrayList<>();
        for (int i = 1; i <= lab.envs.size(); i++) {
            int stage = i;
            after.add(successes(rows, r -> r.stage() != null && r.stage() == stage).values().iterator().next());
        }
        Map<String, Double> untrained = successes(rows, r -> r.policy().equals(CrossEnvStudy.UNTRAINED)).get(CrossEnvStudy.UNTRAINED);
        ObjectNode summary = Json.object();
        var stages = summary.putArray("stages");
        for (int i = 0; i < after.size(); i++) {
            stages.addObject().put("stage", i + 1).put("env", lab.envs.get(i)).set("success", Json.tree(after.get(i)));
        }
        summary.set("untrained", Json.tree(untrained));
        Map<String, Double> forgetting = TransferMath.forgetting(lab.envs, after);
        Map<String, Double> forward = TransferMath.forwardTransfer(lab.envs, after, untrained);
        summary.set("forgetting", Json.tree(forgetting));
        summary.putPOJO("mean_forgetting", TransferMath.mean(forgetting.values()));
        summary.set("forward_transfer", Json.tree(forward));
        summary.putPOJO("mean_forward_transfer", TransferMath.mean(forward.values()));
        summary.putPOJO("final_mean_success", TransferMath.mean(after.getLast().values()));
        Grid grid = grid("after stage", "tested on", rows, Row::policy, Row::env);
        return lab.result(rows, grid, summary);
    }

    public static Result mixture(List<String> envs, Settings s, Path dir, StudyProgress progress, Consumer<List<EpisodeResult>> report) {
        Lab lab = new Lab(Kind.MIXTURE, s, dir, progress, report, envs);
        List<Cell> cells = lab.acrossEnvironments();
        int n = lab.envs.size();
        for (String e : lab.envs) {
            lab.planTraining("single-" + e, TrainingTasks.of(e), false, s.steps());
            lab.planEvaluation("single:" + e, cells);
        }
        lab.planTraining("mixture", TrainingTasks.mixture(lab.envs), false, s.steps() * n);
        lab.planEvaluation("mixture", cells);
        planStages(lab, "sequential", cells, false, true);
        try (StudyKit.Pipeline pipe = lab.pipeline) {
            lab.evaluateUntrained(cells);
            Future<Trained> first = null;
            for (String e : lab.envs) {
                Future<Trained> single = lab.train("single-" + e, TrainingTasks.of(e), null, s.steps(), true);
                if (first == null) first = single;
                lab.evaluate("single:" + e, null, e, single, cells);
            }
            lab.evaluate("mixture", null, String.join("+", lab.envs),
                    lab.train("mixture", TrainingTasks.mixture(lab.envs), null, s.steps() * n, true), cells);
            stages(lab, "sequential", cells, false, first);
            pipe.await();
        }
        List<Row> rows = lab.rows();
        Map<String, Map<String, Double>> by = successes(rows, r -> true);
        Map<String, Map<String, Double>> strategies = new LinkedHashMap<>();
        strategies.put("mixture", balance(by.get("mixture")));
        strategies.put("sequential", balance(by.get("sequential")));
        Map<String, Double> specialists = new LinkedHashMap<>();
        for (String e : lab.envs) specialists.put(e, by.get("single:" + e).get(e));
        strategies.put("specialists (one policy per environment)", balance(specialists));
        Map<String, Double> single = new LinkedHashMap<>();
        for (String e : lab.envs) {
            single.put(e, TransferMath.mean(lab.envs.stream().map(t -> by.get("single:" + t).get(e)).toList()));
        }
        strategies.put("single-environment (mean over training environments)", balance(single));
        strategies.put(CrossEnvStudy.UNTRAINED, balance(by.get(CrossEnvStudy.UNTRAINED)));
        ObjectNode summary = Json.object();
        summary.set("strategies", Json.tree(strategies));
        Map<String, Map<String, Double>> matrix = new LinkedHashMap<>();
        for (String e : lab.envs) matrix.put(e, by.get("single:" + e));
        summary.set("matrix", Json.tree(matrix));
        List<Row> shown = rows.stream().filter(r -> !r.policy().startsWith("single:")).toList();
        Grid grid = grid("strategy", "tested on", shown, Row::policy, Row::env);
        return lab.result(rows, grid, summary);
    }

    /**
     * Trains the lab's environments in order, each stage continuing from the last; with
     * {@code everyStage} each stage is evaluated (named {@code stage N: env}), else only the last
     * (named {@code prefix}).
     */
    private static void stages(Lab lab, String prefix, List<Cell> cells, boolean everyStage, Future<Trained> firstStage) {
        Future<Trained> previous = null;
        List<String> done = new ArrayList<>();
        for (int i = 0; i < lab.envs.size(); i++) {
            String e = lab.envs.get(i);
            done.add(e);
            boolean last = i == lab.envs.size() - 1;
            if (i == 0 && firstStage != null && !last) {
                // Stage 1 would be the single-environment run already trained (same seed, tasks, steps and start).
                previous = firstStage;
                lab.progress.log(lab.kind.id() + ": " + prefix + " stage 1 (" + e + ") is the single-environment run of " + e);
                continue;
            }
            boolean evaluated = everyStage || last;
            Future<Trained> t = lab.train(prefix + "-" + (i + 1) + "-" + e, TrainingTasks.of(e), previous, lab.settings.steps(), evaluated);
            previous = t;
            if (everyStage) lab.evaluate("stage " + (i + 1) + ": " + e, i + 1, String.join(" > ", done), t, cells);
            else if (last) lab.evaluate(prefix, null, String.join(" > ", done), t, cells);
        }
    }

    /** Plans what {@link #stages} will train and evaluate (with {@code firstTrained}, stage 1 is reused, not trained). */
    private static void planStages(Lab lab, String prefix, List<Cell> cells, boolean everyStage, boolean firstTrained) {
        for (int i = 0; i < lab.envs.size(); i++) {
            String e = lab.envs.get(i);
            boolean last = i == lab.envs.size() - 1;
            if (i == 0 && firstTrained && !last) continue;
            lab.planTraining(prefix + "-" + (i + 1) + "-" + e, TrainingTasks.of(e), i > 0, lab.settings.steps());
            if (everyStage) lab.planEvaluation("stage " + (i + 1) + ": " + e, cells);
            else if (last) lab.planEvaluation(prefix, cells);
        }
    }

    /** Success per test environment, with the mean and the minimum (the balance) appended. */
    private static Map<String, Double> balance(Map<String, Double> perEnv) {
        Map<String, Double> out = new LinkedHashMap<>(perEnv);
        out.put("mean", TransferMath.mean(perEnv.values()));
        out.put("min", perEnv.values().stream().mapToDouble(Double::doubleValue).min().orElse(0));
        return out;
    }

    /** policy -> test environment -> success rate, for the rows that pass. */
    static Map<String, Map<String, Double>> successes(List<Row> rows, java.util.function.Predicate<Row> which) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (Row r : rows) {
            if (which.test(r)) out.computeIfAbsent(r.policy(), k -> new LinkedHashMap<>()).put(r.env(), r.score().successRate());
        }
        return out;
    }

    static Grid grid(String rowsName, String columnsName, List<Row> rows, java.util.function.Function<Row, String> row,
                     java.util.function.Function<Row, String> column) {
        List<String> rl = rows.stream().map(row).distinct().toList();
        List<String> cl = rows.stream().map(column).distinct().toList();
        List<List<Double>> values = new ArrayList<>();
        for (String r : rl) {
            List<Double> line = new ArrayList<>();
            for (String c : cl) {
                line.add(rows.stream().filter(x -> row.apply(x).equals(r) && column.apply(x).equals(c)).findFirst()
                        .map(x -> x.score().successRate()).orElse(null));
            }
            values.add(line);
        }
        return new Grid(rowsName, columnsName, rl, cl, values);
    }

    /** What {@code --json} prints: the settings, environments, rows, the protocol's figures, grid, notes, training records, timings. */
    public static ObjectNode json(Result r) {
        ObjectNode o = Json.object();
        o.put("study", r.kind().id());
        o.put("protocol", r.kind().protocol());
        Settings s = r.settings();
        o.put("budget", s.budget());
        o.put("method", s.method().id());
        o.put("seed", s.seed());
        o.put("steps", s.steps());
        if (s.method() == Trainer.Method.PAFT) o.put("alpha", s.alpha());
        if (s.method() == Trainer.Method.RL && s.init() == null) o.put("warmup_steps", s.warmupSteps());
        o.put("test_tasks", s.tasks());
        o.put("k", s.k());
        o.set("envs", Json.tree(r.envs()));
        o.set("excluded", Json.tree(r.excluded()));
        o.set("rows", Json.tree(r.rows()));
        o.setAll(r.summary());
        o.set("grid", Json.tree(r.grid()));
        o.set("notes", Json.tree(r.notes()));
        o.set("training", Json.tree(r.training()));
        o.set("seconds", Json.tree(r.seconds()));
        return o;
    }
}
