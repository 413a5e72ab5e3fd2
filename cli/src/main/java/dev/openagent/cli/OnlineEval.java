package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.adapt.OnlineAdaptation;
import dev.openagent.curve.CurveFiles;
import dev.openagent.json.Json;
import dev.openagent.run.AgentSpec;
import dev.openagent.run.Experiment;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code eval --agent policy:DIR --adapt online}: the CLI's wiring of online adaptation (train's
 * {@link OnlineAdaptation}) into eval's flags, so that the eval module never needs the train module. The curve goes
 * to {@link CurveFiles} in the run's directory and, as a run of kind {@code online}, to the results store ({@code --store}).
 */
final class OnlineEval {
    private OnlineEval() {}

    /** The flags of online adaptation, on {@code eval}. */
    static final class Flags {
        @Option(names = "--adapt", paramLabel = "MODE", description = "online: the policy learns from outcome reward while it is evaluated, "
                + "updated after each group of episodes (--agent policy:DIR, one environment, one shift; docs/adaptation.md).")
        String mode;

        @Option(names = "--group-size", paramLabel = "N", description = "With --adapt online: episodes in a group, one update after each, "
                + "at least 2 (their mean success is their baseline) (default: " + OnlineAdaptation.DEFAULT_GROUP_SIZE + ").")
        Integer groupSize;

        @Option(names = "--attempts", paramLabel = "K", description = "With --adapt online: attempts of each task in a group, dividing "
                + "--group-size; above 1, a task's attempts are one another's baseline (default: " + OnlineAdaptation.DEFAULT_ATTEMPTS + ").")
        Integer attempts;

        @Option(names = "--groups", paramLabel = "N", description = "With --adapt online: groups in the stream, one update after each "
                + "(default: " + OnlineAdaptation.DEFAULT_GROUPS + ").")
        Integer groups;

        @Option(names = "--adapt-lr", paramLabel = "LR", description = "With --adapt online: the learning rate of each group's update "
                + "(default: " + OnlineAdaptation.DEFAULT_LR + ").")
        Float lr;

        @Option(names = "--out", paramLabel = "DIR", description = "With --adapt online: the run's directory (curve.csv, curve.json, "
                + "checkpoints/group-NNNN); rerunning the same command resumes there (default: runs/online-ID).")
        Path out;

        /** Refuses the flags of online adaptation on an ordinary eval. */
        void refuseWithoutAdapt() {
            if (groupSize != null || attempts != null || groups != null || lr != null || out != null) {
                throw new Main.UserError("--group-size, --attempts, --groups, --adapt-lr and --out are for --adapt online");
            }
        }
    }

    static int run(EvalCommand eval, Experiment exp) {
        Flags f = eval.online;
        if (!f.mode.equals("online")) throw new Main.UserError("--adapt '" + f.mode + "': the one mode is online");
        if (exp.agents().size() != 1 || !exp.agents().getFirst().kind().startsWith(Agents.POLICY)) {
            throw new Main.UserError("--adapt online adapts one built-in policy: --agent policy:DIR (got "
                    + String.join(",", exp.agents().stream().map(AgentSpec::kind).toList()) + ")");
        }
        if (exp.envs().size() != 1) throw new Main.UserError("--adapt online runs one environment (got " + String.join(",", exp.envs()) + ")");
        for (String flag : List.of("--tasks", "--trials", "--shard", "--shards", "--run")) {
            if (eval.given(flag)) throw new Main.UserError(flag + " does not apply to --adapt online (a stream of --groups groups of --group-size episodes, written to --out)");
        }
        List<ShiftStack> stacks = ShiftSpec.expand(exp.shiftSpec());
        if (stacks.size() > 1) {
            throw new Main.UserError("--adapt online runs under one persistent shift; '" + exp.shiftSpec() + "' is " + stacks.size() + " conditions");
        }
        ShiftStack shift = (stacks.isEmpty() ? ShiftStack.NONE : stacks.getFirst()).in(Main.catalog(eval.spec));
        String env = exp.envs().getFirst();
        shift.notApplicable(Main.catalog(eval.spec).get(env).info()).ifPresent(why -> {
            throw new Main.UserError(shift.label() + " does not apply to " + env + ": " + why);
        });
        int groupSize = f.groupSize != null ? f.groupSize : OnlineAdaptation.DEFAULT_GROUP_SIZE;
        if (groupSize < 2) throw new Main.UserError("--group-size must be at least 2: a group's mean success is its episodes' baseline (got " + groupSize + ")");
        int attempts = f.attempts != null ? f.attempts : OnlineAdaptation.DEFAULT_ATTEMPTS;
        if (attempts < 1 || groupSize % attempts != 0) throw new Main.UserError("--attempts must be at least 1 and divide --group-size " + groupSize + " (got " + attempts + ")");
        int groups = f.groups != null ? f.groups : OnlineAdaptation.DEFAULT_GROUPS;
        if (groups < 1) throw new Main.UserError("--groups must be at least 1");
        float lr = f.lr != null ? f.lr : OnlineAdaptation.DEFAULT_LR;
        if (!(lr > 0) || Float.isInfinite(lr)) throw new Main.UserError("--adapt-lr must be positive");
        AgentSpec agent = exp.agents().getFirst();
        Path policy = Path.of(agent.kind().substring(Agents.POLICY.length()));
        dev.openagent.policy.Checkpoint.load(policy).close(); // a bad checkpoint is one line, before anything runs
        String label = agent.label() != null ? agent.label() : agent.kind();
        var settings = new OnlineAdaptation.Settings(policy, env, shift, exp.splitValue(), exp.difficulty(), groups, groupSize, attempts, lr,
                exp.seed(), label + " under " + (shift.isStatic() ? "static" : shift.label()));
        Path out = f.out != null ? f.out : Path.of("runs", settings.id());
        System.err.printf(Locale.ROOT, "online adaptation: %d groups of %d episodes (%s) under %s, lr %s; run directory %s%n",
                groups, groupSize, attempts == 1 ? "each a task of its own" : settings.tasks() + " tasks, " + attempts + " attempts each", shift.isStatic() ? "static" : shift.label(), lr, out);
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("kind", "online");
        config.put("agent", label);
        config.put("env", env);
        config.put("shift", shift.label());
        config.put("groups", groups);
        config.put("group_size", groupSize);
        config.put("attempts", attempts);
        config.put("lr", (double) lr);
        config.put("seed", exp.seed());
        config.put("out", out.toAbsolutePath().toString());
        config.put("curve_x", "group");
        OnlineAdaptation.Result r;
        // The curve goes to the run's directory and, as a run of kind online, to the results store (the viewer charts
        // it); the run's id is the stream's, so a resumed stream continues the same stored run.
        try (TrainingRun stored = TrainingRun.begin(eval.store.location(), "online-" + settings.id(), "eval --adapt online " + settings.series(), config)) {
            r = OnlineAdaptation.run(Main.catalog(eval.spec), settings, out, new CurveFiles(out).and(stored.curve()), line -> System.err.println("progress: " + line),
                    Integer.MAX_VALUE);
            stored.complete();
        }
        int third = Math.max(1, r.points().size() / 3);
        double first = r.meanSuccess(1, third);
        double last = r.meanSuccess(r.points().size() - third + 1, r.points().size());
        if (eval.json.on) {
            ObjectNode o = Json.object();
            o.put("out", out.toString());
            o.put("series", settings.series());
            o.put("resumed_after", r.resumedFrom());
            o.put("first_groups_success", first);
            o.put("last_groups_success", last);
            var points = o.putArray("curve");
            for (var p : r.points()) {
                points.addObject().put("group", p.group()).put("success", p.success().value()).put("lo", p.success().lo())
                        .put("hi", p.success().hi()).put("episodes", p.episodes()).put("with_signal", p.withSignal());
            }
            o.put("checkpoint", OnlineAdaptation.checkpoint(out, r.points().size()).toString());
            eval.json.print(o);
            return 0;
        }
        System.out.printf(Locale.ROOT, "%s: %d groups, %d episodes%s%n", settings.series(), r.points().size(), r.points().getLast().episodes(),
                r.resumedFrom() > 0 ? " (resumed after group " + r.resumedFrom() + ")" : "");
        System.out.printf(Locale.ROOT, "%6s %8s %17s %9s%n", "group", "success", "95% CI", "episodes");
        for (var p : r.points()) {
            System.out.printf(Locale.ROOT, "%6d %8.3f %17s %9d%n", p.group(), p.success().value(),
                    String.format(Locale.ROOT, "[%.3f, %.3f]", p.success().lo(), p.success().hi()), p.episodes());
        }
        System.out.printf(Locale.ROOT, "mean success: first %d groups %.3f, last %d groups %.3f (%+.3f)%n", third, first, third, last, last - first);
        System.out.println("curve: " + out.resolve(CurveFiles.CSV) + ", " + out.resolve(CurveFiles.JSON));
        System.out.println("checkpoint: " + OnlineAdaptation.checkpoint(out, r.points().size()) + " (openagent eval --agent policy:DIR)");
        return 0;
    }
}
