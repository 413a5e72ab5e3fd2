package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.adapt.Adaptation;
import dev.openagent.frontier.Focus;
import dev.openagent.json.Json;
import dev.openagent.policy.Checkpoint;
import dev.openagent.curve.CurveSink;
import dev.openagent.policy.PolicyEval;
import dev.openagent.study.StudyProgress;
import dev.openagent.watch.EventsFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Locale;

@Command(name = "adapt", description = {
        "Adapt a built-in policy checkpoint to given shifts: the PAFT trainer continues it on",
        "demonstrations under those shifts, mixed with a replay share of static ones (against",
        "forgetting). Prints success before and after on the targets, on static and on each tier,",
        "and writes the adapted checkpoint (docs/adaptation.md). The shifts come from exactly one",
        "of --shift, --from-watch (a watch's events) or --from-frontier (a frontier's focus file)."})
final class AdaptCommand implements Runnable {
    @Option(names = "--policy", required = true, paramLabel = "DIR", description = "The checkpoint to adapt (as `train` writes it).")
    Path policy;

    @Option(names = "--shift", paramLabel = "SPEC", description = "The shifts to adapt to, as eval's --shift takes them (none and static excepted).")
    String shift;

    @Option(names = "--from-watch", paramLabel = "EVENTS", description = "The shifts a watch named: the events file of `proxy mcp --watch-events` "
            + "(or `watch diff --json` output); each event's reproduction spec (its `shift`) is a target (docs/watch.md).")
    Path fromWatch;

    @Option(names = "--from-frontier", paramLabel = "FILE", description = "The shifts that broke the agent: a frontier's focus file (focus.json), "
            + "each entry at its severities and weight (docs/frontier.md).")
    Path fromFrontier;

    @Mixin
    Options.Env env;

    @Option(names = "--episodes", paramLabel = "N", description = "Demonstrated episodes to train on (about: the trainer draws whole pools) "
            + "(default: " + Adaptation.DEFAULT_EPISODES + ").")
    Integer episodes;

    @Option(names = "--replay", paramLabel = "SHARE", description = "Share of those episodes drawn static, in [0, 1) (default: "
            + Adaptation.DEFAULT_REPLAY + ", measured in docs/adaptation.md).")
    Double replay;

    @Option(names = "--tasks", paramLabel = "N", description = "Test tasks per condition, before and after (default: " + Adaptation.DEFAULT_TASKS + ").")
    Integer tasks;

    @Option(names = "--lr", paramLabel = "LR", description = "Peak learning rate (default: a quarter of the checkpoint's own, from its training.json, "
            + "when sft or paft trained it; else a quarter of 2e-3).")
    Float lr;

    @Mixin
    Options.Seed seed;

    @Mixin
    Options.Threads threads;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The adapted checkpoint's directory (eval --agent policy:DIR runs it).")
    Path out;

    @Mixin
    Options.OptionalStore store;

    @Mixin
    Options.JsonOutput json;

    @Override
    public void run() {
        int given = (shift != null ? 1 : 0) + (fromWatch != null ? 1 : 0) + (fromFrontier != null ? 1 : 0);
        if (given != 1) {
            throw new Main.UserError((given == 0 ? "give the shifts to adapt to" : "give only one source of shifts")
                    + ": --shift SPEC, --from-watch EVENTS or --from-frontier FILE");
        }
        int n = episodes != null ? episodes : Adaptation.DEFAULT_EPISODES;
        if (n < 1) throw new Main.UserError("--episodes must be at least 1");
        double share = replay != null ? replay : Adaptation.DEFAULT_REPLAY;
        if (!(share >= 0 && share < 1)) throw new Main.UserError("--replay must be in [0, 1), got " + replay);
        int perCondition = tasks != null ? tasks : Adaptation.DEFAULT_TASKS;
        if (perCondition < 1) throw new Main.UserError("--tasks must be at least 1");
        if (lr != null && !(lr > 0)) throw new Main.UserError("--lr must be positive");
        env.environment();
        Checkpoint.load(policy).close(); // fail early on a bad checkpoint
        Focus targets;
        String source;
        if (shift != null) {
            String spec = Options.Shift.check(shift, "--shift");
            targets = Adaptation.targets(spec, env.id);
            source = "--shift " + spec;
        } else if (fromWatch != null) {
            EventsFile events = EventsFile.read(fromWatch);
            if (events.specs().isEmpty()) {
                throw new Main.UserError(fromWatch + ": none of its " + events.events() + " events names a catalog shift, so there is nothing to adapt to");
            }
            targets = Adaptation.targets(String.join(";", events.specs()), env.id);
            source = "--from-watch " + fromWatch;
        } else {
            targets = Focus.read(fromFrontier);
            source = "--from-frontier " + fromFrontier;
        }
        var settings = new Adaptation.Settings(policy, env.id, targets, source, n, share, seed.value, perCondition, lr, threads.workers());
        Adaptation.Result r;
        var where = store.location();
        String runId = null;
        try (TrainingRun stored = where == null ? null : TrainingRun.begin(where, "adapt " + policy.getFileName() + " on " + env.id + " (" + source + ")",
                describe(source, n, share, perCondition));
             StudyProgress progress = StudyProgress.console("adapt", System.err, "the adaptation")) {
            r = Adaptation.run(env.catalog(), settings, out, progress, stored == null ? CurveSink.NONE : stored.curve());
            if (stored != null) {
                stored.complete();
                runId = stored.id();
            }
        }
        if (json.on) {
            ObjectNode o = Json.object();
            o.put("policy", policy.toString());
            o.put("env", env.id);
            o.put("source", source);
            o.put("out", out.toString());
            o.set("training", r.training());
            o.set("rows", Json.tree(r.rows()));
            if (runId != null) {
                o.put("run", runId);
                o.put("store", where.toString());
            }
            json.print(o);
            return;
        }
        var a = r.training();
        System.out.printf(Locale.ROOT, "adapted %s on %s (%s): %d steps of %d, %d episodes (%d shifted, replay %.2f), %.1f s%n", policy, env.id, source,
                a.path("steps").asInt(), a.path("batch").asInt(), a.path("episodes").asInt(), a.path("shifted_episodes").asInt(), share,
                a.path("seconds").asDouble());
        System.out.printf(Locale.ROOT, "%-34s %-26s %-26s %s%n", "success on " + perCondition + " test tasks each", "before", "after", "change");
        for (Adaptation.Row row : r.rows()) {
            if (row.group().equals("shift")) continue; // per catalog shift: in --json and training.json
            String name = switch (row.group()) {
                case "target" -> "  " + row.condition();
                case "targets" -> "targets (pooled)";
                default -> row.condition();
            };
            System.out.printf(Locale.ROOT, "%-34s %-26s %-26s %+.3f%n", name, figures(row.before()), figures(row.after()), row.change());
        }
        r.notes().forEach(note -> System.out.println("note: " + note));
        System.out.println("checkpoint: " + out + " (openagent eval --agent policy:" + out + ")");
        if (runId != null) System.out.println("stored as run " + runId + " in " + where + " (openagent view --store " + where + ")");
    }

    /** What the run records as its experiment ({@code --store}). */
    private java.util.Map<String, Object> describe(String source, int n, double share, int perCondition) {
        java.util.Map<String, Object> c = new java.util.LinkedHashMap<>();
        c.put("kind", "adapt");
        c.put("policy", policy.toString());
        c.put("env", env.id);
        c.put("source", source);
        c.put("episodes", n);
        c.put("replay", share);
        c.put("tasks", perCondition);
        if (lr != null) c.put("lr", lr);
        c.put("seed", seed.value);
        c.put("out", out.toString());
        return c;
    }

    private static String figures(PolicyEval.Figures f) {
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", f.successRate(), f.ciLow(), f.ciHigh());
    }
}
