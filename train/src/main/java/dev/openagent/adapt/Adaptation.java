package dev.openagent.adapt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.episode.Trajectory;
import dev.openagent.focus.FocusedShifts;
import dev.openagent.frontier.Focus;
import dev.openagent.json.Json;
import dev.openagent.policy.Checkpoint;
import dev.openagent.curve.CurveSink;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyEval;
import dev.openagent.policy.PolicyRunner;
import dev.openagent.policy.ShiftSampler;
import dev.openagent.policy.Trainer;
import dev.openagent.registry.Catalog;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.Split;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import dev.openagent.shift.Tier;
import dev.openagent.study.StudyProgress;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Targeted offline adaptation ({@code openagent adapt}): an existing checkpoint trained on, by the same trainer PAFT
 * uses, from its own weights, on perturbed demonstrations of the shifts it is given, mixed with a replay share of
 * static demonstrations against forgetting. The policy is evaluated before and after on the same test tasks: on the
 * target shifts, on static, and on every catalog shift that applies (pooled by tier), so what it gained and what it
 * forgot are read side by side.
 */
public final class Adaptation {
    /** The replay share unless one is given (measured: docs/adaptation.md). */
    public static final double DEFAULT_REPLAY = 0.3;
    /**
     * The peak learning rate unless one is given, as a share of the one the checkpoint was trained with: at the
     * checkpoint's own (2e-3) a short adaptation cost 4-7 points of static success whatever the replay share; at a
     * quarter, with replay 0.3, one (docs/adaptation.md).
     */
    public static final double LR_SHARE = 0.25;
    /** Demonstrated episodes trained on unless a number is given. */
    public static final int DEFAULT_EPISODES = 2000;
    /** Test tasks per condition, before and after, unless a number is given. */
    public static final int DEFAULT_TASKS = 100;

    private Adaptation() {}

    /**
     * @param policy   the checkpoint to adapt
     * @param env      the environment trained and evaluated on
     * @param targets  what to adapt to, as a focus (its entries for {@code env}: a spec, the severities to train at, a weight)
     * @param source   where the targets came from, for the record ({@code --shift obs.redirect})
     * @param episodes demonstrated episodes to train on (the trainer draws whole pools: about this many)
     * @param replay   the share of those episodes drawn static, in [0, 1)
     * @param seed     training and test tasks
     * @param tasks    test tasks per condition, before and after
     * @param lr       the peak learning rate; null: {@link #LR_SHARE} of the checkpoint's own when it was cloned (sft, paft),
     *                 else of the trainer's default
     * @param threads  training and evaluation threads
     */
    public record Settings(Path policy, String env, Focus targets, String source, int episodes, double replay, long seed, int tasks,
                           Float lr, int threads) {
        public Settings {
            if (episodes < 1) throw new UserInputException("--episodes must be at least 1");
            if (!(replay >= 0 && replay < 1)) throw new UserInputException("--replay must be in [0, 1), got " + replay);
            if (tasks < 1) throw new UserInputException("--tasks must be at least 1");
            if (lr != null && !(lr > 0)) throw new UserInputException("--lr must be positive");
            threads = Math.max(1, threads);
        }
    }

    /**
     * One line of the before/after table.
     *
     * @param group      {@code target} (one target shift), {@code targets} (all pooled), {@code static}, a tier id
     *                   (its shifts pooled), or {@code shift} (one catalog shift)
     * @param condition  the spec, or the group's name for a pooled row
     * @param conditions the shift stacks the row's episodes actually ran under (read off their trajectories)
     */
    public record Row(String group, String condition, PolicyEval.Figures before, PolicyEval.Figures after, List<String> conditions) {
        /** After minus before, in success rate. */
        public double change() { return PolicyEval.round(after.successRate() - before.successRate()); }
    }

    /**
     * @param rows     targets (each, then pooled), static, the tiers, then each catalog shift
     * @param training what the trainer recorded, with the adaptation's settings and rows ({@code training.json})
     * @param notes    targets left out (not applicable to the environment)
     */
    public record Result(List<Row> rows, ObjectNode training, List<String> notes) {
        public Row row(String group, String condition) {
            return rows.stream().filter(r -> r.group().equals(group) && r.condition().equals(condition)).findFirst().orElseThrow();
        }
    }

    /** A condition evaluated: its row's group and name, and the stack it runs under. */
    record Condition(String group, String name, ShiftStack stack) {}

    /**
     * Targets from a {@code --shift} spec (or a watch's specs joined by ';'): every condition it expands to, each once
     * with weight 1, trained and evaluated at its parameters as written or defaulted (a severity not given is the default).
     */
    public static Focus targets(String spec, String env) {
        List<Focus.Entry> entries = new ArrayList<>();
        LinkedHashSet<String> seen = new LinkedHashSet<>();
        for (ShiftStack s : ShiftSpec.expand(spec)) {
            if (s.isStatic()) throw new UserInputException("'" + spec + "' includes the static environment: there is nothing to adapt to there");
            String written = written(s);
            if (seen.add(written)) entries.add(new Focus.Entry(env, written, List.of(), 1.0, null));
        }
        return new Focus(Focus.VERSION, null, 0, entries);
    }

    /** A stack with every parameter written out ({@code obs.redirect:severity=2}), as trajectories record it: a target names its severity. */
    static String written(ShiftStack s) {
        return String.join("+", s.layers().stream().map(l -> new ShiftRecord(l.shift().id(), l.params(), 0).spec()).toList());
    }

    /**
     * The targets of {@code env} that apply to it (shifts that replace the environment never do: they are not trained
     * on); the others go to {@code notes}.
     */
    public static Focus applicable(Focus targets, Environment env, List<String> notes) {
        List<Focus.Entry> kept = new ArrayList<>();
        for (Focus.Entry e : targets.entries()) {
            if (!e.env().equals(env.id())) {
                notes.add("left out: " + e.shift() + " (for " + e.env() + ", not " + env.id() + ")");
                continue;
            }
            ShiftStack stack = e.stack();
            var why = stack.notApplicable(env.info());
            if (why.isEmpty() && stack.layers().stream().anyMatch(l -> ShiftSampler.NOT_FOR_TRAINING.contains(l.shift().id()))) {
                why = java.util.Optional.of("it replaces the environment, so there is nothing of it to train on");
            }
            if (why.isPresent()) notes.add("left out: " + e.shift() + ": " + why.get());
            else kept.add(e);
        }
        if (kept.isEmpty()) {
            throw new UserInputException("no target applies to " + env.id() + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")"));
        }
        return new Focus(targets.version(), targets.agent(), targets.drop(), kept);
    }

    /**
     * The trainer's options: PAFT from the checkpoint (its vocabulary grown with the new data's words), a fraction
     * 1 - replay of the episodes under the targets at their weights, the rest static; the batch the checkpoint was
     * cloned with and a share of its peak learning rate where it records them, for about {@code episodes} episodes; the
     * environment looked up in {@code catalog} (an environment file's too).
     */
    static Trainer.Options options(Settings s, Focus targets, Policy start, Catalog catalog) {
        JsonNode made = Checkpoint.training(s.policy());
        boolean cloned = made.path("method").asText("").equals("sft") || made.path("method").asText("").equals("paft");
        Trainer.Options defaults = Trainer.Options.of(Trainer.Method.PAFT, s.env(), 1, s.seed());
        int batch = cloned ? made.path("batch").asInt(defaults.batch()) : defaults.batch();
        float lr = s.lr() != null ? s.lr() : defaultLr(s.policy(), s.env());
        ShiftSampler sampler = FocusedShifts.sampler(targets, s.env());
        Trainer.Options probe = options(s, 1, start, sampler, batch, lr).in(catalog);
        return options(s, Trainer.stepsFor(probe, s.episodes()), start, sampler, batch, lr).in(catalog);
    }

    private static Trainer.Options options(Settings s, int steps, Policy start, ShiftSampler sampler, int batch, float lr) {
        return Trainer.Options.of(Trainer.Method.PAFT, s.env(), steps, s.seed()).continuing(s.policy()).withConfig(start.config())
                .withAlpha(1 - s.replay()).withShifts(sampler).withBatch(batch, lr);
    }

    /** The conditions evaluated: each target, static, and every catalog shift that applies at its defaults. */
    static List<Condition> conditions(Focus targets, Environment env) {
        List<Condition> out = new ArrayList<>();
        for (Focus.Entry e : targets.entries()) out.add(new Condition("target", e.shift(), e.stack()));
        out.add(new Condition("static", "static", ShiftStack.NONE));
        for (Shift s : ShiftCatalog.all()) {
            if (ShiftSampler.NOT_FOR_TRAINING.contains(s.id())) continue;
            ShiftStack stack = ShiftSpec.parseStack(s.id());
            if (stack.notApplicable(env.info()).isEmpty()) out.add(new Condition(s.tier().id(), s.id(), stack));
        }
        return out;
    }

    /**
     * Trains the checkpoint toward {@code targets} (as {@link #applicable} keeps them) without evaluating it: the adapted
     * policy and the trainer's record ({@code study adaptation} adapts round by round, evaluating between rounds).
     */
    public static Trainer.Result train(Catalog catalog, Settings s, Focus targets, java.util.function.Consumer<String> log,
                                       java.util.function.IntConsumer progress) {
        Trainer.Options o;
        try (Policy start = Checkpoint.load(s.policy())) {
            o = options(s, targets, start, catalog);
        }
        return Trainer.train(o, log, progress, s.threads());
    }

    /** The peak learning rate adaptation uses by default for a checkpoint: {@link #LR_SHARE} of its own, or of the trainer's default. */
    public static float defaultLr(Path checkpoint, String env) {
        JsonNode made = Checkpoint.training(checkpoint);
        boolean cloned = made.path("method").asText("").equals("sft") || made.path("method").asText("").equals("paft");
        float own = Trainer.Options.of(Trainer.Method.PAFT, env, 1, 0).lr();
        return (float) (LR_SHARE * (cloned ? made.path("lr").asDouble(own) : own));
    }

    /** Adapts the checkpoint and writes the adapted one to {@code out}. */
    public static Result run(Catalog catalog, Settings s, Path out, StudyProgress progress) {
        return run(catalog, s, out, progress, CurveSink.NONE);
    }

    /**
     * As {@link #run(Catalog, Settings, Path, StudyProgress)}, sending the learning curve to {@code curve}: the trainer's loss
     * ({@link Trainer#train(Trainer.Options, java.util.function.Consumer, java.util.function.IntConsumer, int, CurveSink)}),
     * and the success before (at step 0) and after (at the last step), with its 95% Wilson interval, of each row but the
     * single catalog shifts ({@link #curveSeries}).
     */
    public static Result run(Catalog catalog, Settings s, Path out, StudyProgress progress, CurveSink curve) {
        Environment env = catalog.get(s.env());
        List<String> notes = new ArrayList<>();
        Focus targets = applicable(s.targets(), env, notes);
        notes.forEach(progress::log);
        List<Condition> conditions = conditions(targets, env);
        long episodes = (long) conditions.size() * s.tasks();
        Trainer.Options o;
        List<List<Trajectory>> before;
        StudyProgress.Phase evalBefore = progress.phase("evaluate before", StudyProgress.evaluationWork(env.info(), episodes), episodes);
        StudyProgress.Phase train;
        StudyProgress.Phase evalAfter;
        try (Policy start = Checkpoint.load(s.policy())) {
            o = options(s, targets, start, catalog);
            train = progress.phase("train", StudyProgress.trainingWork(o), o.steps());
            evalAfter = progress.phase("evaluate after", StudyProgress.evaluationWork(env.info(), episodes), episodes);
            progress.log(String.format(Locale.ROOT, "adapt: %d target condition%s on %s; before: %d conditions x %d test tasks", targets.entries().size(),
                    targets.entries().size() == 1 ? "" : "s", s.env(), conditions.size(), s.tasks()));
            before = evaluate(start, "before", conditions, env, s, evalBefore);
        }
        progress.log(String.format(Locale.ROOT, "adapt: training %d steps of %d (about %d episodes, replay %.2f static), lr %s, from %s",
                o.steps(), o.batch(), s.episodes(), s.replay(), o.lr(), s.policy()));
        Trainer.Result trained = Trainer.train(o, line -> progress.log("  " + line), train::advanceTo, s.threads(), curve);
        train.done();
        List<Row> rows;
        try (Policy adapted = trained.policy()) {
            List<List<Trajectory>> after = evaluate(adapted, "after", conditions, env, s, evalAfter);
            rows = rows(conditions, before, after);
            for (Row row : rows) {
                String series = curveSeries(row);
                if (series == null) continue;
                curve.point(series, 0, "success", row.before().successRate(), row.before().ciLow(), row.before().ciHigh());
                curve.point(series, o.steps(), "success", row.after().successRate(), row.after().ciLow(), row.after().ciHigh());
            }
            ObjectNode info = trained.info();
            ObjectNode a = info.putObject("adaptation");
            a.put("from", s.policy().toString());
            a.put("source", s.source());
            targets.entries().forEach(e -> a.withArray("targets").add(e.shift()));
            a.put("episodes_requested", s.episodes());
            a.put("replay", s.replay());
            a.put("test_tasks", s.tasks());
            notes.forEach(n -> a.withArray("notes").add(n));
            a.set("rows", Json.tree(rows));
            Checkpoint.save(adapted, out, info);
            return new Result(rows, info, notes);
        }
    }

    /**
     * A row's series in the learning curve: a target's spec, {@code targets (pooled)}, {@code static}, a tier's id; null
     * for a single catalog shift (dozens of them: they stay in {@code training.json}).
     */
    static String curveSeries(Row row) {
        return switch (row.group()) {
            case "shift" -> null;
            case "targets" -> "targets (pooled)";
            default -> row.condition();
        };
    }

    private static List<List<Trajectory>> evaluate(Policy policy, String agent, List<Condition> conditions, Environment env, Settings s,
                                                   StudyProgress.Phase phase) {
        List<PolicyRunner.Job> jobs = new ArrayList<>();
        for (Condition c : conditions) jobs.addAll(PolicyEval.jobs(env, c.stack(), Split.TEST, s.tasks(), s.seed()));
        List<PolicyRunner.Episode> all = PolicyEval.episodes(policy, agent, jobs, s.threads(), e -> phase.advance(1));
        phase.done();
        List<List<Trajectory>> out = new ArrayList<>();
        for (int i = 0; i < conditions.size(); i++) {
            out.add(all.subList(i * s.tasks(), (i + 1) * s.tasks()).stream().map(PolicyRunner.Episode::trajectory).toList());
        }
        return out;
    }

    /** Targets (each, then pooled), static, each tier pooled (in the catalog's order of tiers), then each catalog shift. */
    static List<Row> rows(List<Condition> conditions, List<List<Trajectory>> before, List<List<Trajectory>> after) {
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < conditions.size(); i++) groups.computeIfAbsent(conditions.get(i).group(), k -> new ArrayList<>()).add(i);
        List<Row> targets = new ArrayList<>();
        List<Row> shifts = new ArrayList<>();
        for (int i = 0; i < conditions.size(); i++) {
            Condition c = conditions.get(i);
            Row r = row(c.group().equals("target") || c.group().equals("static") ? c.group() : "shift", c.name(), before, after, List.of(i));
            if (c.group().equals("target")) targets.add(r);
            else if (!c.group().equals("static")) shifts.add(r);
        }
        List<Row> out = new ArrayList<>(targets);
        out.add(row("targets", "targets", before, after, groups.get("target")));
        out.add(row("static", "static", before, after, groups.get("static")));
        for (Tier t : Tier.values()) {
            if (groups.containsKey(t.id())) out.add(row(t.id(), t.id(), before, after, groups.get(t.id())));
        }
        out.addAll(shifts);
        return out;
    }

    private static Row row(String group, String name, List<List<Trajectory>> before, List<List<Trajectory>> after, List<Integer> which) {
        List<Trajectory> b = which.stream().flatMap(i -> before.get(i).stream()).toList();
        List<Trajectory> a = which.stream().flatMap(i -> after.get(i).stream()).toList();
        LinkedHashSet<String> ran = new LinkedHashSet<>();
        for (Trajectory t : b) ran.add(t.shiftSpec());
        for (Trajectory t : a) ran.add(t.shiftSpec());
        return new Row(group, name, PolicyEval.Figures.of(b), PolicyEval.Figures.of(a), List.copyOf(ran));
    }
}
