package dev.openagent.policy;

import ai.djl.training.tracker.Tracker;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.curve.CurveSink;
import dev.openagent.registry.Catalog;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * The three ways to train the policy:
 * <ul>
 *   <li>SFT: behaviour cloning of oracle trajectories on the static training split;</li>
 *   <li>PAFT: the same, with a fraction alpha of the trajectories run under a shift drawn from
 *       the catalog (the oracle's way through the shift is the recovery demonstration);</li>
 *   <li>RL: group-relative policy gradient (GRPO-style) from outcome reward: groups of sampled
 *       rollouts per task, advantage = (reward - group mean) / group std, from a checkpoint or
 *       from scratch.</li>
 * </ul>
 * Everything is seeded: the same options give the same weights.
 */
public final class Trainer {
    public enum Method {
        SFT, RL, PAFT;

        public String id() { return name().toLowerCase(Locale.ROOT); }

        public static Method parse(String s) {
            for (Method m : values()) if (m.id().equals(s.toLowerCase(Locale.ROOT))) return m;
            throw new UserInputException("unknown method '" + s + "' (sft, rl, paft)");
        }
    }

    /**
     * @param env        the (first) training environment
     * @param steps      optimiser steps (SFT, PAFT) or policy-gradient iterations (RL)
     * @param alpha      PAFT: fraction of shifted trajectories; RL: fraction of rollout groups run under a shift
     * @param init       start from this checkpoint (RL: usually an SFT policy); null for random weights
     * @param batch      examples per step (SFT, PAFT)
     * @param lr         peak learning rate (warm-up, then cosine decay to a tenth)
     * @param groupTasks RL: tasks per iteration
     * @param groupSize  RL: rollouts per task
     * @param shifts     where shifts are drawn from (null: the catalog's shifts for each environment, spread by {@code mix})
     * @param mix        how shifts are spread over the catalog when {@code shifts} is null
     * @param tasks      which training tasks: {@code env} alone by default; a mixture and/or a difficulty range
     * @param taskPool   distinct training tasks drawn, in turn, per environment (0: a new task every episode)
     * @param growVocabulary with {@code init}: add the words of the new training data to the checkpoint's
     *                   vocabulary and answer words (continuing on another environment), instead of keeping them
     * @param catalog    where the training environments' ids are looked up ({@link #in}); null ({@link #of}): the built-in ones
     */
    public record Options(Method method, String env, int steps, long seed, double alpha, Path init, int batch, float lr,
                          int groupTasks, int groupSize, PolicyConfig config, ShiftSampler shifts, ShiftSampler.Mix mix,
                          TrainingTasks tasks, int taskPool, boolean growVocabulary, Catalog catalog) {
        public Options {
            if (steps < 1) throw new UserInputException("steps must be at least 1");
            if (batch < 1) throw new UserInputException("batch must be at least 1");
            if (alpha < 0 || alpha > 1) throw new UserInputException("alpha must be in [0, 1]");
            if (groupSize < 2) throw new UserInputException("RL groups need at least 2 rollouts");
            if (taskPool < 0) throw new UserInputException("the task pool cannot be negative");
            if (mix == null) mix = ShiftSampler.Mix.UNIFORM;
            if (tasks == null) tasks = TrainingTasks.of(env);
            if (!tasks.envs().getFirst().equals(env)) throw new IllegalArgumentException("env must be the first of the training tasks' environments");
        }

        /**
         * Defaults: SFT/PAFT 2e-3 with batch 64 (PAFT: alpha 0.3), RL 5e-5 with 16 tasks x 8 static rollouts. From an SFT
         * policy near 98% static, RL at 2e-4 cost 6-7 points of static success in 15 iterations and 1e-4 two; 5e-5 and
         * 2e-5 kept it (0.978 over 400 test tasks after 40 iterations, as SFT).
         */
        public static Options of(Method method, String env, int steps, long seed) {
            return new Options(method, env, steps, seed, method == Method.RL ? 0 : 0.3, null, 64, method == Method.RL ? 5e-5f : 2e-3f, 16, 8,
                    PolicyConfig.defaults(), null, ShiftSampler.Mix.UNIFORM, null, 0, false, null);
        }

        public Options withAlpha(double a) { return new Options(method, env, steps, seed, a, init, batch, lr, groupTasks, groupSize, config, shifts, mix, tasks, taskPool, growVocabulary, catalog); }

        public Options withInit(Path dir) { return new Options(method, env, steps, seed, alpha, dir, batch, lr, groupTasks, groupSize, config, shifts, mix, tasks, taskPool, growVocabulary, catalog); }

        public Options withConfig(PolicyConfig c) { return new Options(method, env, steps, seed, alpha, init, batch, lr, groupTasks, groupSize, c, shifts, mix, tasks, taskPool, growVocabulary, catalog); }

        public Options withShifts(ShiftSampler s) { return new Options(method, env, steps, seed, alpha, init, batch, lr, groupTasks, groupSize, config, s, mix, tasks, taskPool, growVocabulary, catalog); }

        public Options withMix(ShiftSampler.Mix m) { return new Options(method, env, steps, seed, alpha, init, batch, lr, groupTasks, groupSize, config, shifts, m, tasks, taskPool, growVocabulary, catalog); }

        public Options withBatch(int b, float learningRate) { return new Options(method, env, steps, seed, alpha, init, b, learningRate, groupTasks, groupSize, config, shifts, mix, tasks, taskPool, growVocabulary, catalog); }

        public Options withGroups(int tasks, int size) { return new Options(method, env, steps, seed, alpha, init, batch, lr, tasks, size, config, shifts, mix, this.tasks, taskPool, growVocabulary, catalog); }

        /** Trains on these tasks ({@code env} becomes their first environment). */
        public Options withTasks(TrainingTasks t) { return new Options(method, t.envs().getFirst(), steps, seed, alpha, init, batch, lr, groupTasks, groupSize, config, shifts, mix, t, taskPool, growVocabulary, catalog); }

        /** Draws its episodes from this many distinct training tasks per environment (0: a new task every episode). */
        public Options withTaskPool(int n) { return new Options(method, env, steps, seed, alpha, init, batch, lr, groupTasks, groupSize, config, shifts, mix, tasks, n, growVocabulary, catalog); }

        /** Continues from {@code dir}, adding the new training data's words to its vocabulary. */
        public Options continuing(Path dir) { return new Options(method, env, steps, seed, alpha, dir, batch, lr, groupTasks, groupSize, config, shifts, mix, tasks, taskPool, true, catalog); }

        /** A training environment by id: in the catalog, else among the built-in ones. */
        public Environment environment(String id) { return catalog != null ? catalog.get(id) : Environments.get(id); }

        /** Looks the training environments up in {@code c} (one that loaded an environment file, say). */
        public Options in(Catalog c) { return new Options(method, env, steps, seed, alpha, init, batch, lr, groupTasks, groupSize, config, shifts, mix, tasks, taskPool, growVocabulary, c); }
    }

    /** A trained policy and what {@code training.json} records about it. */
    public record Result(Policy policy, ObjectNode info) {}

    private Trainer() {}

    public static Result train(Options o, Consumer<String> log) {
        return train(o, log, step -> {});
    }

    /**
     * Trains, logging every tenth of the run to {@code log} and telling {@code progress} the number of
     * optimiser steps (RL: iterations) done after each one.
     */
    public static Result train(Options o, Consumer<String> log, IntConsumer progress) {
        return train(o, log, progress, 1);
    }

    /**
     * As {@link #train(Options, Consumer, IntConsumer)}, SFT's and PAFT's optimiser steps shared among
     * {@code threads} threads ({@link GradientWorkers}). The trained policy is the same bit for bit
     * whatever the threads; more only make it sooner when cores are free.
     */
    public static Result train(Options o, Consumer<String> log, IntConsumer progress, int threads) {
        return train(o, log, progress, threads, CurveSink.NONE);
    }

    /**
     * As {@link #train(Options, Consumer, IntConsumer, int)}, sending the learning curve to {@code curve}: series
     * {@code train}, metric {@code loss} (SFT, PAFT: the loss averaged as the log prints it, an exponential average with
     * weight 0.1 on the newest step) or {@code reward} (RL: the mean group reward, averaged the same way), at every step
     * the log prints and every {@link #CURVE_POINTS}th of the run.
     */
    public static Result train(Options o, Consumer<String> log, IntConsumer progress, int threads, CurveSink curve) {
        o.tasks().validate(o::environment);
        long t0 = System.nanoTime();
        ObjectNode info = Json.object();
        info.put("method", o.method().id());
        info.put("env", o.env());
        if (o.tasks().envs().size() > 1) o.tasks().envs().forEach(info.putArray("envs")::add);
        if (!o.tasks().anyDifficulty()) {
            info.putArray("difficulty").add(o.tasks().minDifficulty()).add(o.tasks().maxDifficulty());
        }
        info.put("steps", o.steps());
        info.put("seed", o.seed());
        if (o.init() != null) info.put("init", o.init().toString());
        if (o.taskPool() > 0) info.put("task_pool", o.taskPool());
        Result r = switch (o.method()) {
            case SFT -> clone(o, 0, info, log, progress, threads, curve);
            case PAFT -> {
                info.put("alpha", o.alpha());
                int drawn = o.tasks().envs().stream().mapToInt(e -> shifts(o, e).shifts().size()).min().orElse(0);
                info.put("shifts_drawn_from", drawn);
                describeMix(o, info);
                if (drawn == 0) {
                    log.accept("warning: the shift catalog has no shift for " + o.tasks().label() + ": PAFT reduces to SFT");
                }
                yield clone(o, drawn == 0 ? 0 : o.alpha(), info, log, progress, threads, curve);
            }
            case RL -> reinforce(o, info, log, progress, curve);
        };
        info.put("seconds", Math.round((System.nanoTime() - t0) / 1e7) / 100.0);
        info.put("parameters", r.policy().parameterCount());
        return r;
    }

    /** The shifts of one training environment: the options' own, else the catalog's that apply to it, spread by the mix. */
    private static ShiftSampler shifts(Options o, String env) {
        return o.shifts() != null ? o.shifts() : ShiftSampler.catalog(o.environment(env).info(), o.mix());
    }

    /**
     * Oracle demonstrations of the training tasks: one environment's, or each environment's in
     * turn for a mixture (a single environment draws exactly the episodes it always did).
     */
    static Supplier<Demonstrations.Episode> demonstrations(Options o, double alpha, long seed) {
        List<String> envs = o.tasks().envs();
        List<Demonstrations> sources = new ArrayList<>();
        for (int i = 0; i < envs.size(); i++) {
            Environment env = o.environment(envs.get(i));
            ShiftSampler shifts = alpha > 0 ? shifts(o, envs.get(i)) : ShiftSampler.of(List.of());
            sources.add(new Demonstrations(env, alpha, shifts, envs.size() == 1 ? seed : Seeds.mix(seed, i), o.tasks().levels(env.info()))
                    .withTaskPool(o.taskPool()).withSlips(alpha > 0 ? SLIPS : 0));
        }
        if (sources.size() == 1) return sources.getFirst()::next;
        int[] turn = {0};
        return () -> sources.get(turn[0]++ % sources.size()).next();
    }

    // ---------------------------------------------------------------- SFT and PAFT

    /** Points of the learning curve a run sends at least (besides every step the log prints). */
    static final int CURVE_POINTS = 50;

    /** Whether step {@code step} of {@code steps} is a point of the learning curve; {@code every}: the log's interval. */
    static boolean curvePoint(int step, int steps, int every) {
        return step % every == 0 || step % Math.max(1, steps / CURVE_POINTS) == 0 || step == steps;
    }

    private static Result clone(Options o, double alpha, ObjectNode info, Consumer<String> log, IntConsumer progress, int threads, CurveSink curve) {
        Phases phases = new Phases();
        long mark = phases.start();
        Policy policy = initial(o, alpha, info);
        phases.stop("setup", mark);
        try (GradientWorkers workers = GradientWorkers.of(policy, threads)) {
            return clone(o, alpha, policy, workers, info, log, progress, phases, curve);
        }
    }

    private static Result clone(Options o, double alpha, Policy policy, GradientWorkers workers, ObjectNode info, Consumer<String> log,
                                IntConsumer progress, Phases phases, CurveSink curve) {
        long mark;
        Supplier<Demonstrations.Episode> demos = demonstrations(o, alpha, o.seed());
        ClosingAdam opt = ClosingAdam.of(schedule(o.lr(), o.steps()), 1f);
        try {
            Deque<List<Policy.Example>> batches = new ArrayDeque<>();
            SplittableRandom order = new SplittableRandom(Seeds.mix(o.seed(), 0x0D));
            SplittableRandom augment = new SplittableRandom(Seeds.mix(o.seed(), 0xA6));
            int episodes = 0;
            int shifted = 0;
            int skipped = 0;
            long tokens = 0;
            long examples = 0;
            double recent = 0;
            int every = Math.max(1, o.steps() / 10);
            long t0 = System.nanoTime();
            for (int step = 1; step <= o.steps(); step++) {
                if (batches.isEmpty()) {
                    mark = phases.start();
                    // A pool of several batches of demonstrated steps from fresh episodes.
                    List<Policy.Example> pool = new ArrayList<>();
                    while (pool.size() < POOL_BATCHES * o.batch()) {
                        Demonstrations.Episode e = demos.get();
                        episodes++;
                        if (!e.shifts().isStatic()) shifted++;
                        for (Demonstrations.Demo shown : e.steps()) {
                            Demonstrations.Demo d = augment.nextDouble() < NAME_SUBSTITUTION ? Augment.names(shown, augment) : shown;
                            var target = policy.target(d.view(), d.action(), d.task());
                            if (target.isPresent()) pool.add(new Policy.Example(d.view(), target.get(), weight(target.get(), alpha)));
                            else skipped++;
                        }
                    }
                    // Batches are drawn at random from the pool: a pool cut by length would give batches of one
                    // kind of decision each (the shortest contexts are all first calls, the longest all answers).
                    for (int i = pool.size() - 1; i > 0; i--) java.util.Collections.swap(pool, i, order.nextInt(i + 1));
                    for (Policy.Example x : pool) tokens += policy.length(x.view());
                    examples += pool.size();
                    for (int i = 0; i + o.batch() <= pool.size(); i += o.batch()) batches.add(pool.subList(i, i + o.batch()));
                    phases.stop("data", mark);
                }
                List<Policy.Example> batch = batches.poll();
                mark = phases.start();
                float loss = policy.trainGrouped(batch, opt, workers);
                phases.stop("optimiser", mark);
                if (!Float.isFinite(loss)) throw new IllegalStateException("training diverged at step " + step + " (loss " + loss + ")");
                recent = step == 1 ? loss : 0.9 * recent + 0.1 * loss;
                progress.accept(step);
                if (curvePoint(step, o.steps(), every)) curve.point("train", step, "loss", recent);
                if (step % every == 0 || step == o.steps()) {
                    log.accept(String.format(Locale.ROOT, "%s step %d/%d  loss %.4f  (%d episodes, %.1f s)", o.method().id(), step,
                            o.steps(), recent, episodes, (System.nanoTime() - t0) / 1e9));
                }
            }
            log.accept(o.method().id() + " time by phase: " + phases);
            info.set("phases", phases.json());
            info.put("mean_context_tokens", examples == 0 ? 0 : Math.round(10.0 * tokens / examples) / 10.0);
            info.put("final_loss", Math.round(recent * 1e4) / 1e4);
            info.put("episodes", episodes);
            info.put("shifted_episodes", shifted);
            if (alpha > 0) {
                info.put("slips", SLIPS);
                info.put("refusal_weight", REFUSAL_WEIGHT);
            }
            info.put("unexpressible_steps", skipped);
            info.put("batch", o.batch());
            info.put("lr", o.lr());
            return new Result(policy, info);
        } finally {
            opt.close();
        }
    }

    /**
     * The starting policy: a checkpoint, or random weights with a vocabulary and answer words read
     * off a sample of the training demonstrations. A checkpoint continuing on new data with
     * {@code growVocabulary} also learns the words of that data.
     */
    private static Policy initial(Options o, double alpha, ObjectNode info) {
        Policy policy;
        if (o.init() != null) {
            policy = Checkpoint.load(o.init());
            if (o.growVocabulary()) {
                Reading r = read(o.config(), demonstrations(o, alpha, Seeds.mix(o.seed(), 0xA4)), vocabularySample(o));
                int before = policy.vocabulary().size();
                policy = policy.withWords(r.vocabulary(), r.answerWords());
                info.put("vocabulary_added", policy.vocabulary().size() - before);
            }
        } else {
            Reading r = read(o.config(), demonstrations(o, alpha, Seeds.mix(o.seed(), 0xA4)), vocabularySample(o));
            policy = Policy.create(o.config().withAnswerWords(r.answerWords()), r.vocabulary(), o.seed());
        }
        policy.wordDropout(o.method() == Method.RL ? 0 : WORD_DROPOUT, Seeds.mix(o.seed(), 0xD0));
        return policy;
    }

    /**
     * Episodes read for the vocabulary: 400, or fewer when cloning sees less data than that (a few
     * steps of a small batch, as in tests), so that reading never costs more than training.
     */
    static int vocabularySample(Options o) {
        if (o.method() == Method.RL) return 400;
        return (int) Math.max(50, Math.min(400, (long) o.steps() * o.batch() / 4));
    }

    /**
     * Optimiser steps (at least one) that read about {@code episodes} demonstrated episodes once: the demonstrated steps
     * of a sample of the run's own episodes ({@code o}'s mix, shifts and slips; drawn on a seed of their own, so the run's
     * data is untouched), times {@code episodes}, over the batch. The trainer draws whole pools of batches, so the episodes
     * it records ({@code training.json}'s {@code episodes}) come out near, not exactly at, the number asked for.
     */
    public static int stepsFor(Options o, int episodes) {
        if (episodes < 1) throw new UserInputException("episodes must be at least 1");
        Supplier<Demonstrations.Episode> demos = demonstrations(o, o.method() == Method.PAFT ? o.alpha() : 0, Seeds.mix(o.seed(), 0x57E95));
        long decisions = 0;
        for (int i = 0; i < STEPS_SAMPLE; i++) decisions += demos.get().steps().size();
        return (int) Math.max(1, Math.round((double) episodes * decisions / STEPS_SAMPLE / o.batch()));
    }

    /** Episodes {@link #stepsFor} reads to estimate the demonstrated steps of one. */
    static final int STEPS_SAMPLE = 32;

    /** Fraction of demonstrated steps whose copied names are replaced by invented ones (see {@link Augment}). */
    static final double NAME_SUBSTITUTION = 0.5;

    /**
     * PAFT: the probability of a slip before an oracle tool call ({@link Demonstrations#withSlips}).
     * Without slips the PAFT policy refused after any error that followed its own wrong call (and
     * after transient errors and redirects): 39% of perception and 23% of interaction episodes ended
     * in a refusal at {@code --quick}; with 0.15 and {@link #REFUSAL_WEIGHT}, 13-23% and 4-8% over three training
     * seeds (docs/training.md).
     */
    static final double SLIPS = 0.15;

    /**
     * PAFT: the loss weight of a refusal decision. A refusal is one step of a short episode, and
     * slips teach the opposite reaction to an error (call again): without the weight, slips took
     * refusal on {@code task.unsolvable} from 0.93 to 0.59; with it, 0.90, 0.91 and 0.93 over three training
     * seeds (docs/training.md).
     */
    static final float REFUSAL_WEIGHT = 3f;

    /** A demonstrated decision's loss weight: {@link #REFUSAL_WEIGHT} for a refusal in PAFT (alpha > 0), else 1 (SFT unchanged). */
    static float weight(Decision d, double alpha) {
        return alpha > 0 && d instanceof Decision.Refuse ? REFUSAL_WEIGHT : 1f;
    }

    /** Batches generated and length-sorted together. */
    static final int POOL_BATCHES = 8;

    /** Word dropout of cloning: enough that names are read by context, little enough to keep keywords. */
    static final double WORD_DROPOUT = 0.3;

    /** What a sample of demonstrations says about the words a policy needs. */
    record Reading(Vocabulary vocabulary, List<String> answerWords) {}

    /**
     * The vocabulary (words seen at least 3 times in what the agent reads) and the answer words
     * (words demonstrated answers had to contain that no context held, seen at least twice; in a
     * text-command environment a number once).
     */
    static Reading read(PolicyConfig config, Demonstrations demos, int episodes) {
        return read(config, demos::next, episodes);
    }

    /** As above, from any source of demonstrations (a mixture of environments). */
    static Reading read(PolicyConfig config, Supplier<Demonstrations.Episode> demos, int episodes) {
        Map<String, Integer> words = new HashMap<>();
        Map<String, Integer> missing = new LinkedHashMap<>();
        java.util.Set<dev.openagent.sandbox.ToolSpec> toolsSeen = new java.util.HashSet<>();
        for (int i = 0; i < episodes; i++) {
            for (Demonstrations.Demo d : demos.get().steps()) {
                View v = d.view();
                count(words, v.request());
                count(words, v.rules());
                if (!v.turns().isEmpty()) {
                    count(words, v.turns().getLast().actionText());
                    count(words, v.turns().getLast().observationText());
                }
                for (var t : v.tools()) {
                    if (!toolsSeen.add(t)) continue;
                    count(words, t.name());
                    count(words, Batch.descriptionText(t));
                    t.parameters().path("properties").forEach(p -> {
                        count(words, p.path("description").asText(""));
                        p.path("enum").forEach(e -> count(words, e.asText()));
                    });
                }
                if (d.action() instanceof Action.Answer) {
                    for (String w : Policy.missingAnswerWords(config, v, d.task())) {
                        // A count in a text environment ("how many mugs are in the fridge?") is a number the
                        // agent works out, never reads: one sighting is enough to make it sayable.
                        boolean counted = v.textCommands() && !Double.isNaN(Tokenizer.number(w));
                        missing.merge(w, counted ? 2 : 1, Integer::sum);
                    }
                }
            }
        }
        List<String> vocabulary = words.entrySet().stream().filter(e -> e.getValue() >= 3).map(Map.Entry::getKey).sorted().toList();
        List<String> answerWords = missing.entrySet().stream().filter(e -> e.getValue() >= 2)
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(32).map(Map.Entry::getKey).toList();
        return new Reading(new Vocabulary(vocabulary), answerWords);
    }

    private static void count(Map<String, Integer> words, String text) {
        for (Tokenizer.Token t : Tokenizer.tokenize(text)) words.merge(t.lower(), 1, Integer::sum);
    }

    /** Linear warm-up over the first 5% of steps, then cosine decay to a tenth of the peak. */
    static Tracker schedule(float peak, int steps) {
        int warm = Math.max(1, steps / 20);
        return update -> {
            if (update <= warm) return peak * update / warm;
            double progress = Math.min(1.0, (update - warm) / (double) Math.max(1, steps - warm));
            return (float) (peak * (0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * progress))));
        };
    }

    /** How a run's shifts were spread ({@code training.json}): the mix and each shift's probability. */
    private static void describeMix(Options o, ObjectNode info) {
        info.put("mix", o.shifts() != null ? "given" : o.mix().label());
        info.set("shift_weights", Json.tree(shifts(o, o.env()).weights()));
    }

    // ---------------------------------------------------------------- RL

    private static Result reinforce(Options o, ObjectNode info, Consumer<String> log, IntConsumer progress, CurveSink curve) {
        Policy policy = initial(o, 0, info);
        List<Environment> envs = o.tasks().envs().stream().map(o::environment).toList();
        List<List<Integer>> levels = envs.stream().map(e -> o.tasks().levels(e.info())).toList();
        List<ShiftSampler> shifts = o.alpha() > 0 ? o.tasks().envs().stream().map(e -> shifts(o, e)).toList() : List.of();
        if (o.alpha() > 0) {
            info.put("alpha", o.alpha());
            describeMix(o, info);
        }
        ClosingAdam opt = ClosingAdam.of(Tracker.fixed(o.lr()), 1f);
        try {
            SplittableRandom sampler = new SplittableRandom(Seeds.mix(o.seed(), 0x5A3F));
            SplittableRandom shifting = new SplittableRandom(Seeds.mix(o.seed(), 0x5A5F));
            int every = Math.max(1, o.steps() / 10);
            double recentReward = 0;
            int updates = 0;
            int groups = 0;
            int signal = 0;
            int shiftedGroups = 0;
            long t0 = System.nanoTime();
            for (int it = 1; it <= o.steps(); it++) {
                List<PolicyRunner.Job> jobs = new ArrayList<>();
                for (int t = 0; t < o.groupTasks(); t++) {
                    long task = (long) it * o.groupTasks() + t;
                    int e = (int) Math.floorMod(task, (long) envs.size()); // a mixture takes its environments in turn
                    long taskSeed = Seeds.mix(Seeds.mix(o.seed(), 0xB1), task);
                    List<Integer> in = levels.get(e);
                    int difficulty = in.isEmpty() ? 0 : in.get(Math.floorMod(Seeds.mix(taskSeed, 0xD1FF), in.size()));
                    TaskRequest request = new TaskRequest(Split.TRAIN, taskSeed, difficulty);
                    // A group under a shift: from a policy that solves static tasks, shifted rollouts are where outcomes differ.
                    ShiftStack stack = !shifts.isEmpty() && !shifts.get(e).isEmpty() && shifting.nextDouble() < o.alpha()
                            ? shifts.get(e).sample(shifting) : ShiftStack.NONE;
                    if (!stack.isStatic()) shiftedGroups++;
                    for (int g = 0; g < o.groupSize(); g++) jobs.add(new PolicyRunner.Job(envs.get(e), stack, request));
                }
                List<PolicyRunner.Episode> episodes = PolicyRunner.run(policy, "rl", jobs, jobs.size(), sampler, true, e -> {});
                List<List<PolicyRunner.Episode>> byTask = new ArrayList<>();
                for (int t = 0; t < o.groupTasks(); t++) byTask.add(episodes.subList(t * o.groupSize(), (t + 1) * o.groupSize()));
                GroupUpdate.Stats update = GroupUpdate.apply(policy, opt, byTask, o.batch());
                groups += update.groups();
                signal += update.withSignal();
                if (update.updated()) updates++;
                double meanReward = update.meanReward();
                recentReward = it == 1 ? meanReward : 0.9 * recentReward + 0.1 * meanReward;
                progress.accept(it);
                if (curvePoint(it, o.steps(), every)) curve.point("train", it, "reward", recentReward);
                if (it % every == 0 || it == o.steps()) {
                    log.accept(String.format(Locale.ROOT, "rl iteration %d/%d  reward %.3f  (%d updates, %d of %d groups with signal, %.1f s)", it,
                            o.steps(), recentReward, updates, signal, groups, (System.nanoTime() - t0) / 1e9));
                }
            }
            info.put("final_reward", Math.round(recentReward * 1e4) / 1e4);
            info.put("updates", updates);
            info.put("groups", groups);
            info.put("groups_with_signal", signal);
            info.put("shifted_groups", shiftedGroups);
            info.put("group_tasks", o.groupTasks());
            info.put("group_size", o.groupSize());
            info.put("lr", o.lr());
            return new Result(policy, info);
        } finally {
            opt.close();
        }
    }
}
