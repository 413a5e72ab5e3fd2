package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.focus.FocusedShifts;
import dev.openagent.frontier.Focus;
import dev.openagent.policy.Checkpoint;
import dev.openagent.curve.CurveSink;
import dev.openagent.policy.PolicyEval;
import dev.openagent.policy.ShiftSampler;
import dev.openagent.policy.Trainer;
import dev.openagent.study.PaperStudy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;

@Command(name = "train", description = {
        "Train the built-in policy on CPU and save a checkpoint directory.",
        "  sft:  behaviour cloning of oracle trajectories on the static training split",
        "  paft: SFT where a fraction --alpha of the trajectories run under shifts drawn from the catalog (--mix), or from a",
        "        frontier's focus file (--focus: the shifts that broke the agent)",
        "  rl:   group-relative policy gradient from outcome reward (from --init, usually an SFT policy, or from scratch)"})
final class TrainCommand implements Runnable {
    @Option(names = "--method", required = true, description = "sft, rl or paft.")
    String method;

    @Mixin
    Options.Env env;

    @Option(names = "--alpha", description = "PAFT: fraction of shifted trajectories (default 0.3); RL: fraction of rollout groups run under a shift drawn from the catalog (default 0).")
    Double alpha;

    @Option(names = "--steps", description = "Optimiser steps (sft, paft; default 1200) or iterations (rl; default 60).")
    Integer steps;

    @Option(names = "--batch", description = "Examples per optimiser step (sft, paft; default 64).")
    Integer batch;

    @Option(names = "--lr", description = "Peak learning rate (default 2e-3 for sft and paft, 5e-5 for rl).")
    Float lr;

    @Option(names = "--mix", description = "PAFT: how the shifted episodes spread over the catalog: uniform (every shift equally likely, the default) "
            + "or recipe (the paper study's: perception and interaction shifts evenly, 20%% refusal demonstrations; docs/training.md).")
    String mix;

    @Option(names = "--focus", paramLabel = "FILE", description = "PAFT: draw the shifted episodes from a frontier's focus file (focus.json, "
            + "`openagent frontier`): the shifts that broke the agent, at the severities its entries list (the frontier writes the one "
            + "that broke the agent and every stronger one; docs/frontier.md).")
    Path focus;

    @Option(names = "--task-pool", description = "Draw the episodes from this many distinct training tasks in turn, as the paper study's SFT does (1000 at --quick); 0, the default, a new task every episode.")
    int taskPool;

    @Option(names = "--older-turns", description = "A new policy reads the turns before the last three in full (full) or only their actions, the tool and the arguments passed on (actions); default: the policy's default configuration.")
    String olderTurns;

    @Mixin
    Options.Seed seed;

    @Option(names = "--init", description = "Start from this checkpoint directory.")
    Path init;

    @Option(names = "--out", required = true, description = "Checkpoint directory to write.")
    Path out;

    @Option(names = "--eval", defaultValue = "200", description = "Static test-split tasks to evaluate on after training; 0 skips (default: ${DEFAULT-VALUE}).")
    int eval;

    @Mixin
    Options.OptionalStore store;

    @Mixin
    Options.JsonOutput json;

    @Override
    public void run() {
        Trainer.Method m = Trainer.Method.parse(method);
        env.environment();
        if (alpha != null && (alpha < 0 || alpha > 1)) throw new Main.UserError("--alpha must be between 0 and 1");
        if (init != null) Checkpoint.load(init).close(); // fail early on a bad checkpoint
        int n = steps != null ? steps : m == Trainer.Method.RL ? 60 : 1200;
        if (n < 1) throw new Main.UserError("--steps must be at least 1");
        Trainer.Options o = Trainer.Options.of(m, env.id, n, seed.value).withInit(init).in(env.catalog());
        if (alpha != null) o = o.withAlpha(alpha);
        if ((mix != null || focus != null) && m != Trainer.Method.PAFT) throw new Main.UserError("--mix and --focus are for --method paft");
        if (mix != null && focus != null) throw new Main.UserError("give --mix or --focus, not both (a focus file sets the shifts drawn)");
        if (mix != null) {
            o = o.withMix(switch (mix) {
                case "uniform" -> ShiftSampler.Mix.UNIFORM;
                case "recipe" -> PaperStudy.PAFT_MIX;
                default -> throw new Main.UserError("--mix must be uniform or recipe");
            });
        }
        if (focus != null) o = o.withShifts(FocusedShifts.sampler(Focus.read(focus), env.id));
        if (taskPool < 0) throw new Main.UserError("--task-pool cannot be negative");
        o = o.withTaskPool(taskPool);
        if (olderTurns != null) {
            if (init != null) throw new Main.UserError("--older-turns applies to a new policy, not one continued with --init");
            boolean actionsOnly = switch (olderTurns) {
                case "full" -> false;
                case "actions" -> true;
                default -> throw new Main.UserError("--older-turns must be full or actions");
            };
            o = o.withConfig(o.config().withOlderTurnsActionsOnly(actionsOnly));
        }
        if (batch != null && batch < 1) throw new Main.UserError("--batch must be at least 1");
        if (lr != null && !(lr > 0)) throw new Main.UserError("--lr must be positive");
        o = o.withBatch(batch != null ? batch : o.batch(), lr != null ? lr : o.lr());
        var where = store.location();
        try (TrainingRun stored = where == null ? null : TrainingRun.begin(where, m.id() + " on " + env.id + ", " + n + " steps", describe(o))) {
            train(m, o, stored);
        }
    }

    /** What the run records as its experiment ({@code --store}). */
    private java.util.Map<String, Object> describe(Trainer.Options o) {
        java.util.Map<String, Object> c = new java.util.LinkedHashMap<>();
        c.put("kind", "train");
        c.put("method", o.method().id());
        c.put("env", o.env());
        c.put("steps", o.steps());
        c.put("seed", o.seed());
        c.put("batch", o.batch());
        c.put("lr", o.lr());
        if (o.method() != Trainer.Method.SFT) c.put("alpha", o.alpha());
        if (mix != null) c.put("mix", mix);
        if (focus != null) c.put("focus", focus.toString());
        if (init != null) c.put("init", init.toString());
        if (taskPool > 0) c.put("task_pool", taskPool);
        if (olderTurns != null) c.put("older_turns", olderTurns);
        c.put("eval", eval);
        c.put("out", out.toString());
        return c;
    }

    private void train(Trainer.Method m, Trainer.Options o, TrainingRun stored) {
        CurveSink curve = stored == null ? CurveSink.NONE : stored.curve();
        // SFT and PAFT steps on every core: the policy comes out the same bit for bit as on one.
        Trainer.Result r = Trainer.train(o, line -> System.err.println(line), step -> {}, Runtime.getRuntime().availableProcessors(), curve);
        try (var policy = r.policy()) {
            ObjectNode info = r.info();
            if (focus != null) info.put("focus", focus.toString());
            if (eval > 0) {
                PolicyEval.Figures f = PolicyEval.staticTest(policy, env.environment(), eval, seed.value);
                ObjectNode e = info.putObject("static_test");
                e.put("episodes", f.episodes());
                e.put("success_rate", f.successRate());
                e.put("ci_low", f.ciLow());
                e.put("ci_high", f.ciHigh());
                curve.point("static", o.steps(), "success", f.successRate(), f.ciLow(), f.ciHigh());
            }
            if (stored != null) {
                info.put("run", stored.id());
                info.put("store", stored.store());
            }
            Checkpoint.save(policy, out, info);
            if (stored != null) stored.complete();
            if (json.on) {
                json.print(info);
            } else {
                System.out.printf("%s policy (%d parameters) trained in %.1f s, saved to %s%n", m.id(), policy.parameterCount(),
                        info.path("seconds").asDouble(), out);
                if (eval > 0) {
                    var e = info.path("static_test");
                    System.out.printf("  static test success %.3f [%.3f, %.3f] over %d tasks%n", e.path("success_rate").asDouble(),
                            e.path("ci_low").asDouble(), e.path("ci_high").asDouble(), e.path("episodes").asInt());
                }
                if (stored != null) System.out.printf("  stored as run %s in %s (openagent view --store %s)%n", stored.id(), stored.store(), stored.store());
            }
        }
    }
}
