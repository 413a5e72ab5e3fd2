package dev.openagent.cli;

import dev.openagent.adapt.AdaptationStudy;
import dev.openagent.adapt.AdaptationStudyReport;
import dev.openagent.json.Json;
import dev.openagent.policy.Trainer;
import dev.openagent.registry.Environments;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.study.CrossEnvStudy;
import dev.openagent.study.EnvStudies;
import dev.openagent.study.EnvStudyReport;
import dev.openagent.study.PaftMixStudy;
import dev.openagent.study.PaperStudy;
import dev.openagent.study.StudyProgress;
import dev.openagent.study.StudyReport;
import dev.openagent.watch.Change;
import dev.openagent.watch.Snapshot;
import dev.openagent.watch.SurfaceDiff;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

@Command(name = "study", description = "Run a study end to end (train, evaluate under shifts, report).",
        subcommands = {StudyCommand.Paper.class, StudyCommand.PaftMix.class, StudyCommand.Difficulty.class, StudyCommand.Transfer.class,
                StudyCommand.Sequential.class, StudyCommand.Mixture.class, StudyCommand.AdaptationStudyCommand.class})
final class StudyCommand extends GroupCommand {
    @Command(name = "paper", description = {
            "The paper's experiment on poi: train SFT, RL (from SFT, rollouts partly under shifts), PAFT (alpha 0.3; the sweep",
            "over 0.1, 0.3, 0.5 and the scaling ablation sft-4x-steps, sft-4x-data: at --quick with --alpha-sweep and --scaling) on CPU,",
            "evaluate each on the static test split, on every",
            "shift (grouped by tier) and on domain.transfer to medical when it exists, print the table, check the paper's",
            "findings and write report.html (every episode), study.html / study.md (these tables and the findings) and results.json."})
    static final class Paper implements Runnable {
        @CommandLine.Mixin
        PaperOptions options;

        @Option(names = "--scaling", description = "With --quick: add the scaling ablation (sft-4x-steps, sft-4x-data), which about triples the "
                + "study's time; the full study always runs it.")
        boolean scaling;

        @Option(names = "--alpha-sweep", description = "With --quick: add PAFT at alpha 0.1 and 0.5 (the alpha sweep), which about doubles the "
                + "study's time; the full study always runs it.")
        boolean alphaSweep;

        @Override
        public void run() {
            options.run(PaperStudy.ID, PaperStudy::run, scaling, alphaSweep);
        }
    }

    @Command(name = "paft-mix", description = {
            "The PAFT mix ablation behind the paper study's recipe: from one SFT policy on poi, PAFT at alpha 0.3 with each",
            "way of spreading perturbed episodes (over shifts or tiers, over every tier or only perception and interaction, with",
            "or without a share of refusal demonstrations) and step size, the last the paper study's recipe, each evaluated as",
            "the paper study evaluates an agent. Writes the same files as study paper."})
    static final class PaftMix implements Runnable {
        @CommandLine.Mixin
        PaperOptions options;

        @Override
        public void run() {
            options.run(PaftMixStudy.ID, PaftMixStudy::run, false, false);
        }
    }

    /** The options of the paper study and its PAFT mix ablation. */
    static final class PaperOptions {
        @Option(names = "--quick", description = "Smaller training and evaluation budgets (minutes instead of tens of minutes).")
        boolean quick;

        /** For tests: the whole study in seconds, at a budget whose numbers mean nothing. */
        @Option(names = "--tiny", hidden = true)
        boolean tiny;

        @Option(names = "--seed", defaultValue = "1", description = "Seed of training and test tasks (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--out", description = "Directory for the report and the policies (default: runs/study-<name>).")
        Path out;

        @Option(names = "--json", description = "Print {\"rows\": [...]} (and findings, notes, timings) as JSON on standard output; the table goes to standard error.")
        boolean json;

        interface Study {
            PaperStudy.Result run(PaperStudy.Budget budget, long seed, Path dir, StudyProgress progress, java.util.function.Consumer<List<EpisodeResult>> report);
        }

        void run(String id, Study study, boolean scaling, boolean alphaSweep) {
            PaperStudy.Budget budget = tiny ? PaperStudy.Budget.tiny().withScaling(scaling)
                    : quick ? PaperStudy.Budget.quick().withScaling(scaling).withAlphaSweep(alphaSweep) : PaperStudy.Budget.full();
            Path dir = out != null ? out : Path.of("runs", "study-" + id);
            long t0 = System.nanoTime();
            List<EpisodeResult> episodes = new ArrayList<>();
            PaperStudy.Result r;
            try (StudyProgress progress = StudyProgress.console("study " + id, System.err)) {
                r = study.run(budget, seed, dir, progress, episodes::addAll);
            }
            r.seconds().put("total", Math.round((System.nanoTime() - t0) / 1e7) / 100.0);
            String md = StudyReport.markdown(r);
            StudyReport.writeMarkdown(md, dir.resolve("study.md"));
            StudyReport.writeHtml(r, dir.resolve("study.html"));
            StudyReport.writeJson(Json.pretty(PaperStudy.json(r)), dir.resolve("results.json"));
            StudyReport.writeEvaluationReport(r, episodes, dir);
            show(json, md, Json.pretty(PaperStudy.json(r)),
                    "report: " + dir.resolve("report.html") + " (every episode; heatmap, bars, transcripts)",
                    "study:  " + dir.resolve("study.html") + " (these tables and the findings)");
        }
    }

    /** Options every cross-environment study takes: the method, the budget (as {@code train}'s flags) and the output. */
    static final class StudyOptions {
        @Option(names = "--method", defaultValue = "sft", description = "sft, rl (from an SFT warm start, or --init) or paft (default: ${DEFAULT-VALUE}).")
        String method;

        @Option(names = "--quick", description = "Smaller training and evaluation budgets (minutes instead of tens of minutes).")
        boolean quick;

        @Option(names = "--steps", description = "Per training run: optimiser steps (sft, paft) or iterations (rl); default with --quick 3600/6 for transfer and 300/6 for the others, else 2400/30 and 600/30.")
        Integer steps;

        @Option(names = "--alpha", defaultValue = "0.3", description = "PAFT: fraction of shifted trajectories (default: ${DEFAULT-VALUE}).")
        double alpha;

        @Option(names = "--init", description = "Start every first training run from this checkpoint (rl: instead of an SFT warm start).")
        Path init;

        @Option(names = "--eval", description = "Test tasks per evaluated environment (default 40 with --quick, else 200).")
        Integer eval;

        @Option(names = "--k", defaultValue = "1", description = "Trials per test task for avg@k; above 1 actions are sampled (default: ${DEFAULT-VALUE}).")
        int k;

        @Option(names = "--seed", defaultValue = "1", description = "Seed of weights, training and test tasks (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--out", description = "Directory for the reports and the policies (default: runs/study-<name>).")
        Path out;

        @Option(names = "--json", description = "Print the numbers as JSON on standard output; the table goes to standard error.")
        boolean json;

        CrossEnvStudy.Settings settings(CrossEnvStudy.Kind kind) {
            Trainer.Method m = Trainer.Method.parse(method);
            CrossEnvStudy.Settings s = quick ? CrossEnvStudy.Settings.quick(kind, m, seed) : CrossEnvStudy.Settings.full(kind, m, seed);
            if (steps != null) {
                if (steps < 1) throw new Main.UserError("--steps must be at least 1");
                s = s.withSteps(steps);
            }
            if (alpha < 0 || alpha > 1) throw new Main.UserError("--alpha must be between 0 and 1");
            if (eval != null && eval < 1) throw new Main.UserError("--eval must be at least 1");
            if (k < 1) throw new Main.UserError("--k must be at least 1");
            return s.withAlpha(alpha).withTasks(eval != null ? eval : s.tasks(), k).withInit(init);
        }

        /** Runs the study, writes study.md, study.html, results.json and the evaluation report, and prints the table or the JSON. */
        void run(CrossEnvStudy.Kind kind, Study study) {
            Path dir = out != null ? out : Path.of("runs", "study-" + kind.id());
            long t0 = System.nanoTime();
            List<EpisodeResult> episodes = new ArrayList<>();
            CrossEnvStudy.Result r;
            try (StudyProgress progress = StudyProgress.console("study " + kind.id(), System.err)) {
                r = study.run(settings(kind), dir, progress, episodes::addAll);
            }
            r.seconds().put("total", Math.round((System.nanoTime() - t0) / 1e7) / 100.0);
            String md = EnvStudyReport.markdown(r);
            String js = Json.pretty(EnvStudies.json(r));
            StudyReport.writeMarkdown(md, dir.resolve("study.md"));
            EnvStudyReport.writeHtml(r, dir.resolve("study.html"));
            StudyReport.writeJson(js, dir.resolve("results.json"));
            EnvStudyReport.writeEvaluationReport(r, episodes, dir);
            show(json, md, js, "study:  " + dir.resolve("study.html") + " (heatmap and tables)",
                    "report: " + dir.resolve("report.html") + " (every episode; failure taxonomy, transcripts)");
        }
    }

    interface Study {
        CrossEnvStudy.Result run(CrossEnvStudy.Settings s, Path dir, StudyProgress progress, java.util.function.Consumer<List<EpisodeResult>> report);
    }

    /** Environment ids from a comma-separated list, or every registered one. */
    static List<String> envs(String list) {
        if (list == null || list.isBlank()) return Environments.ids();
        List<String> out = new ArrayList<>();
        for (String e : list.split(",")) {
            String id = e.trim();
            if (id.isEmpty()) throw new Main.UserError("empty environment id in '" + list + "'");
            Environments.get(id);
            out.add(id);
        }
        return out;
    }

    /** A cross-environment study: its protocol, the environments it runs on, and the shared options. */
    abstract static class EnvStudy implements Runnable {
        @CommandLine.Mixin
        StudyOptions options;

        private final CrossEnvStudy.Kind kind;

        EnvStudy(CrossEnvStudy.Kind kind) {
            this.kind = kind;
        }

        /** The environment ids as the user gave them, comma-separated (null: every environment). */
        abstract String environmentList();

        @Override
        public void run() {
            List<String> list = envs(environmentList());
            options.run(kind, (s, dir, progress, report) -> EnvStudies.run(kind, list, s, dir, progress, report));
        }
    }

    /** A study over the environments named by {@code --envs}, by default every one. */
    abstract static class AcrossEnvs extends EnvStudy {
        @Option(names = "--envs", description = "Comma-separated environment ids (default: every environment the policy supports).")
        String envs;

        AcrossEnvs(CrossEnvStudy.Kind kind) {
            super(kind);
        }

        String environmentList() { return envs; }
    }

    @Command(name = "difficulty", description = {
            "Within one environment: train on easy tasks (difficulty <= 2) and test on hard ones (>= 3), beside hard-only,",
            "mixed and an easy-then-hard curriculum at the same steps. Writes study.html, study.md, results.json, report.html."})
    static final class Difficulty extends EnvStudy {
        @Option(names = "--env", required = true, description = "Environment id.")
        String env;

        Difficulty() { super(CrossEnvStudy.Kind.DIFFICULTY); }

        String environmentList() { return env; }
    }

    @Command(name = "transfer", description = {
            "Train one policy per environment and test each on every environment: the transfer matrix (a heatmap) with",
            "held-in and held-out gains over the untrained policy. JSON: matrix = train env -> test env -> success_rate."})
    static final class Transfer extends AcrossEnvs {
        Transfer() { super(CrossEnvStudy.Kind.TRANSFER); }
    }

    @Command(name = "sequential", description = {
            "Train on the environments stage by stage, each stage continuing from the previous checkpoint; after each stage",
            "test every environment. Reports forgetting (drop on earlier environments) and forward transfer."})
    static final class Sequential extends EnvStudy {
        @Option(names = "--order", required = true, description = "Comma-separated environment ids, in training order.")
        String order;

        Sequential() { super(CrossEnvStudy.Kind.SEQUENTIAL); }

        String environmentList() { return order; }
    }

    @Command(name = "mixture", description = {
            "One training run on a mixture of environments, side by side with sequential training (same total steps) and",
            "single-environment specialists; reports each strategy's success per environment, its mean and its minimum."})
    static final class Mixture extends AcrossEnvs {
        Mixture() { super(CrossEnvStudy.Kind.MIXTURE); }
    }

    @Command(name = "adaptation", description = {
            "After a persistent shift appears, how many episodes each agent needs to recover to within 5 points of its static",
            "success, and what it forgets: on poi, from SFT- and PAFT-pretrained starting points, under one shift per tier and",
            "the one the watch names for a tool-renaming upgrade, by targeted offline adaptation (adapt, with replay) and by",
            "online RL from outcome reward, evaluated after each round. Writes study.md, study.html (the learning curves as",
            "charts), results.json and curves.csv."})
    static final class AdaptationStudyCommand implements Runnable {
        /** The upgrade the watch is shown: every tool renamed to a synonym, as a server's new version might. */
        static final String UPGRADE = "tool.semantic-rename";

        @Option(names = "--quick", description = "Smaller starting points and repairs up to 1,024 episodes (about ten minutes on two cores).")
        boolean quick;

        /** For tests: the whole study in seconds, at a budget whose numbers mean nothing. */
        @Option(names = "--tiny", hidden = true)
        boolean tiny;

        @Option(names = "--from", description = "A paper study's directory: start from its policies/sft and policies/paft-0.3 instead of training them.")
        Path from;

        @Option(names = "--seed", defaultValue = "1", description = "Seed of training and test tasks (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--out", description = "Directory for the report, the starting points and the repairs (default: runs/study-adaptation).")
        Path out;

        @Option(names = "--json", description = "Print the study's JSON (rows, curves, findings) on standard output; the table goes to standard error.")
        boolean json;

        @Override
        public void run() {
            AdaptationStudy.Budget budget = tiny ? AdaptationStudy.Budget.tiny()
                    : quick ? AdaptationStudy.Budget.quick() : AdaptationStudy.Budget.full();
            if (from != null && !Files.isDirectory(from)) throw new Main.UserError("--from " + from + ": no such directory");
            Path dir = out != null ? out : Path.of("runs", "study-" + AdaptationStudy.ID);
            List<AdaptationStudy.Scenario> scenarios = new ArrayList<>(AdaptationStudy.TIERS);
            scenarios.add(watched(seed));
            AdaptationStudy.Result r;
            try (StudyProgress progress = StudyProgress.console("study adaptation", System.err)) {
                r = AdaptationStudy.run(budget, seed, scenarios, from, dir, progress);
            }
            String md = AdaptationStudyReport.markdown(r);
            String js = Json.pretty(AdaptationStudyReport.json(r));
            StudyReport.writeMarkdown(md, dir.resolve("study.md"));
            AdaptationStudyReport.writeHtml(r, dir.resolve("study.html"));
            StudyReport.writeJson(js, dir.resolve("results.json"));
            StudyReport.writeMarkdown(AdaptationStudyReport.csv(r), dir.resolve("curves.csv"));
            show(json, md, js, "study:  " + dir.resolve("study.html") + " (the learning curves, the table, the findings)",
                    "curves: " + dir.resolve("curves.csv"));
        }

        /**
         * The watch-detected scenario: the watch's diff of poi's tools as served against the same tools after an upgrade
         * that renames them ({@link #UPGRADE}, as the proxy would show them), and the shift it names most often.
         */
        static AdaptationStudy.Scenario watched(long seed) {
            Environment env = Environments.get(AdaptationStudy.ENV);
            TaskRequest request = new TaskRequest(Split.TEST, seed, 0);
            var before = env.create().reset(request).tools();
            var after = ShiftSpec.parseStack(UPGRADE).apply(env.create()).reset(request).tools();
            List<Change> changes = SurfaceDiff.between(snapshot(env.id(), before), snapshot(env.id() + " (upgraded)", after));
            Map<String, Long> named = changes.stream().filter(c -> c.spec() != null)
                    .collect(Collectors.groupingBy(Change::spec, LinkedHashMap::new,
                            Collectors.counting()));
            String spec = named.entrySet().stream().max(Map.Entry.comparingByValue())
                    .orElseThrow(() -> new IllegalStateException("the watch named no catalog shift for " + UPGRADE)).getKey();
            return new AdaptationStudy.Scenario("watch", spec, String.format(Locale.ROOT,
                    "watch diff of %s's %d tools against the same tools after an upgrade that renames them (%s): %d changes, %d named %s",
                    env.id(), before.size(), UPGRADE, changes.size(), named.get(spec), spec));
        }

        private static Snapshot snapshot(String name, List<ToolSpec> tools) {
            return new Snapshot(name, Instant.EPOCH, tools.stream().map(Snapshot.Tool::of).toList(),
                    List.of(), List.of(), List.of(), null);
        }
    }

    /**
     * Prints a study's table and where its reports are; with {@code --json} the JSON goes to standard
     * output alone (for machines) and the table and paths to standard error (for the person watching).
     */
    static void show(boolean json, String table, String js, String... paths) {
        java.io.PrintStream human = json ? System.err : System.out;
        if (json) System.out.println(js);
        human.println(table);
        for (String p : paths) human.println(p);
    }
}
