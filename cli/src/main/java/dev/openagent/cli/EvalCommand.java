package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.metrics.GroupMetrics;
import dev.openagent.metrics.Scorecard;
import dev.openagent.run.AgentSpec;
import dev.openagent.run.EvalAgent;
import dev.openagent.results.EpisodeResult;
import dev.openagent.run.EvalRunner;
import dev.openagent.run.Experiment;
import dev.openagent.run.Progress;
import dev.openagent.run.RunControl;
import dev.openagent.run.Shard;
import dev.openagent.store.ResultStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(name = "eval", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Evaluate agents across environments, shift conditions, tasks and trials (the static condition is always run too).",
                "Results go to a SQLite file or a PostgreSQL database; rerunning the same experiment resumes it (finished episodes are reused).",
                "--shard I/N runs one part of it, so N processes anywhere (a Kubernetes Indexed Job) write one run into one store.",
                "--adapt online: a built-in policy learns from outcome reward while it is evaluated, group after group, under one shift; "
                        + "its learning curve and a checkpoint per group go to --out (docs/adaptation.md).",
                "Exit code 0 when every planned episode is scored, 3 when some are missing or ended in infrastructure errors."})
final class EvalCommand implements Callable<Integer> {
    static final int INCOMPLETE = 3;

    @Option(names = "--config", description = "Experiment file (YAML, see docs/evaluation.md); flags given as well override it.")
    Path config;

    @Option(names = "--name", description = "A name for the run (shown in reports).")
    String name;

    @Option(names = "--agent", split = ",", description = "Agents, comma-separated: " + Agents.KNOWN + ".")
    List<String> agents;

    @Option(names = "--env", split = ",", description = "Environments (ids, tau2:retail or environment files), comma-separated (default: poi).")
    List<String> envs;

    @Mixin
    Options.Tau2Dir tau2 = new Options.Tau2Dir();

    @Mixin
    Options.Shift shift;

    @Option(names = "--tasks", description = "Tasks per condition (default: 20).")
    Integer tasks;

    @Option(names = "--trials", description = "Trials per task, for pass^k (default: 1).")
    Integer trials;

    @Mixin
    Options.Seed seed;

    @Mixin
    Options.SplitOption split;

    @Option(names = "--difficulty", description = "Difficulty level; 0 mixes all levels (default: 0).")
    Integer difficulty;

    @Option(names = "--concurrency", description = "Episodes in flight at once (default: 8).")
    Integer concurrency;

    @Option(names = "--max-requests", description = "Stop after this many model requests (cached replies are free).")
    Long maxRequests;

    @Option(names = "--max-tokens", description = "Stop after this many model tokens (prompt + completion).")
    Long maxTokens;

    @Mixin
    Options.Store store;

    @Option(names = "--shard", paramLabel = "I/N", description = "Run only shard I (0-based) of N: a stable hash of each episode's key decides "
            + "its shard, so N processes cover every episode once.")
    String shard;

    @Option(names = "--shards", paramLabel = "N", description = "The shard count, with the index taken from JOB_COMPLETION_INDEX (set by a "
            + "Kubernetes Indexed Job) when --shard is absent.")
    Integer shards;

    @Option(names = "--run", paramLabel = "ID", description = "Write into the run with this id (default: a hash of the experiment); "
            + "a run holding another experiment is refused.")
    String runId;

    @Option(names = "--no-cache", description = "Ask the model again instead of replaying cached responses (new ones are still stored).")
    boolean noCache;

    @Option(names = "--no-progress", description = "Plain progress lines instead of a progress bar.")
    boolean noProgress;

    @Mixin
    OnlineEval.Flags online = new OnlineEval.Flags();

    @Mixin
    Options.JsonOutput json;

    @Spec
    CommandSpec spec;

    @Mixin
    OpenAiOptions openai;

    @Override
    public Integer call() {
        Experiment exp = experiment();
        if (online.mode != null) return OnlineEval.run(this, exp);
        online.refuseWithoutAdapt();
        Shard part = Shard.of(shard, shards, System.getenv("JOB_COMPLETION_INDEX"));
        if (runId != null && !runId.matches("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")) {
            throw new Main.UserError("--run '" + runId + "': a run id is 1 to 128 letters, digits, '.', '_', ':' or '-', starting with a letter or digit");
        }
        RunControl control = new RunControl(exp.budget().requests(), exp.budget().tokens());
        Agents.RunContext ctx = null;
        try (ResultStore results = ResultStore.open(store.location())) {
            ctx = new Agents.RunContext(results, !noCache, control, new ArrayList<>());
            List<EvalAgent> resolved = new ArrayList<>();
            for (AgentSpec a : exp.agents()) resolved.add(Agents.forEval(a, exp.seed(), ctx));
            EvalRunner.RunResult run;
            try (Progress progress = Progress.forConsole(!noProgress, System.err)) {
                run = new EvalRunner(Main.catalog(spec), results, control, progress).run(exp, resolved, part, runId);
            }
            if (run.internalError() != null) {
                System.err.println("openagent: an episode failed with an internal error (recorded as an error; please report it):");
                run.internalError().printStackTrace(System.err);
            }
            List<EpisodeResult> episodes = results.episodes(run.runId());
            Scorecard card = new Scorecard(episodes);
            Totals totals = Totals.of(episodes, resolved);
            if (json.on) json.print(summary(run, card, totals, control));
            else printText(run, card, totals, control);
            return run.complete() ? 0 : INCOMPLETE;
        } finally {
            if (ctx != null) ctx.close();
        }
    }

    /**
     * What the run's episodes cost and why some did not finish. Requests and tokens are summed over
     * the run's stored episodes, cached replies included, so a resumed run reports what an
     * uninterrupted one would; what this invocation spent (the budget's measure) is apart.
     *
     * @param errorCauses the detail of each infrastructure error, most frequent first, with its count
     */
    record Totals(long modelRequests, long modelTokens, Map<String, Long> errorCauses) {
        static Totals of(List<EpisodeResult> episodes, List<EvalAgent> agents) {
            Set<String> models = new HashSet<>();
            for (EvalAgent a : agents) if ("openai".equals(a.identity().get("kind"))) models.add(a.label());
            long requests = 0, tokens = 0;
            Map<String, Long> causes = new HashMap<>();
            for (EpisodeResult e : episodes) {
                if (models.contains(e.agent())) requests += e.stats().turns();   // one completion per turn
                tokens += e.tokens();
                if (e.infraError()) causes.merge(e.outcome().detail(), 1L, Long::sum);
            }
            Map<String, Long> sorted = new LinkedHashMap<>();
            causes.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .forEach(c -> sorted.put(c.getKey(), c.getValue()));
            return new Totals(requests, tokens, sorted);
        }
    }

    /** The experiment file (if any) with the flags given on the command line applied over it. */
    Experiment experiment() {
        Experiment base = config == null ? new Experiment(null, null, null, null, null, null, null, null, null, null, null) : Experiment.read(config);
        List<AgentSpec> specs = new ArrayList<>();
        if (agents != null && !agents.isEmpty()) {
            for (String a : agents) specs.add(openai.apply(a.strip(), null));
        } else {
            for (AgentSpec a : base.agents()) specs.add(openai.apply(a.kind(), a));
        }
        if (specs.isEmpty()) throw new Main.UserError("name at least one agent: --agent " + Agents.KNOWN.replace(", ", "|") + " (or agents: in --config)");
        if ((openai.baseUrl != null || openai.model != null) && specs.stream().noneMatch(s -> s.kind().equals("openai"))) {
            throw new Main.UserError("--base-url and --model configure the openai agent, but no openai agent is named (--agent openai)");
        }
        Experiment.Budget budget = new Experiment.Budget(maxRequests != null ? maxRequests : base.budget().maxRequests(),
                maxTokens != null ? maxTokens : base.budget().maxTokens());
        List<String> shifts = given("--shift") ? List.of(shift.spec())
                : config != null ? base.shifts().stream().map(s -> Options.Shift.check(s, config + ": shifts:")).toList() : base.shifts();
        // Environment files are loaded (and checked) here and run under their ids.
        List<String> envIds = (envs != null ? envs : base.envs()).stream().map(e -> Options.Env.resolve(Main.catalog(spec), e.strip(), tau2.dir).id()).toList();
        return new Experiment(name != null ? name : base.name(), specs, envIds,
                shifts, tasks != null ? tasks : base.tasks(), trials != null ? trials : base.trials(),
                given("--seed") ? seed.value : base.seed(), given("--split") ? split.name : base.split(),
                difficulty != null ? difficulty : base.difficulty(), concurrency != null ? concurrency : base.concurrency(), budget);
    }

    /** Whether the option was on the command line (options an experiment file can also set override it only then). */
    boolean given(String option) {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    private ObjectNode summary(EvalRunner.RunResult run, Scorecard card, Totals totals, RunControl control) {
        ObjectNode o = Json.object();
        o.put("run", run.runId());
        o.put("store", store.location().toString());
        if (!run.shard().whole()) o.put("shard", run.shard().toString());
        o.put("planned", run.planned());
        o.put("reused", run.reused());
        o.put("ran", run.ran());
        o.put("complete", run.complete());
        o.put("status", run.status().id());
        o.putObject("run_progress").put("planned", run.runPlanned()).put("scored", run.runScored());
        if (run.stopReason() != null) o.put("stopped", run.stopReason());
        o.put("model_requests", totals.modelRequests());
        o.put("model_tokens", totals.modelTokens());
        o.putObject("spent_now").put("model_requests", control.requests()).put("model_tokens", control.tokens());
        if (!totals.errorCauses().isEmpty()) o.set("error_causes", Json.MAPPER.valueToTree(totals.errorCauses()));
        if (!run.notApplicable().isEmpty()) run.notApplicable().forEach(o.putArray("not_applicable")::add);
        o.setAll(card.toJson());
        return o;
    }

    private void printText(EvalRunner.RunResult run, Scorecard card, Totals totals, RunControl control) {
        GroupMetrics all = card.overall();
        System.out.printf(Locale.ROOT, "run %s (%s)%s: %d episodes planned, %d reused, %d run now, %d infrastructure errors%n",
                run.runId(), store.location(), run.shard().whole() ? "" : ", shard " + run.shard(), run.planned(), run.reused(), run.ran(),
                all.errors());
        totals.errorCauses().entrySet().stream().limit(3).forEach(c -> System.out.printf(Locale.ROOT, "  %d x %s%n", c.getValue(), c.getKey()));
        if (totals.errorCauses().size() > 3) System.out.printf("  and %d other causes%n", totals.errorCauses().size() - 3);
        if (run.runScored() < run.runPlanned()) {
            System.out.printf(Locale.ROOT, "partial: %d of the run's %d episodes are scored so far (status %s); the numbers below cover those%n",
                    run.runScored(), run.runPlanned(), run.status());
        }
        System.out.printf(Locale.ROOT, "model requests %d, tokens %d (this invocation asked the model %d times, %d tokens; cached replies are free)%n",
                totals.modelRequests(), totals.modelTokens(), control.requests(), control.tokens());
        if (run.stopReason() != null) System.out.println("stopped early: " + run.stopReason() + " (rerun the same command to continue)");
        run.notApplicable().forEach(s -> System.out.println("not applicable: " + s));
        // "tools/turn": what the tool list costs in tokens each turn (o200k_base, docs/evaluation.md), whatever the agent.
        System.out.printf(Locale.ROOT, "%-36s %-15s %6s %8s %17s %9s %8s %11s%n", "shift", "tier", "n", "success", "95% CI", "delta", "p", "tools/turn");
        Map<String, String> tiers = card.tiers();
        card.byShift().forEach((label, m) -> System.out.printf(Locale.ROOT, "%-36s %-15s %6d %8s %17s %9s %8s %11s%n",
                label, tiers.get(label), m.scored(), fmt(m.successRate()),
                m.successCi() == null ? "-" : String.format(Locale.ROOT, "[%.3f, %.3f]", m.successCi()[0], m.successCi()[1]),
                m.delta() == null ? "-" : String.format(Locale.ROOT, "%+.3f", m.delta().absolute()),
                m.delta() == null ? "-" : String.format(Locale.ROOT, "%.3g", m.delta().pValue()),
                m.toolListTokens() == null ? "-" : String.format(Locale.ROOT, "%.0f", m.toolListTokens())));
        System.out.printf(Locale.ROOT, "overall: success %s, tool error rate %s, refusal %s, false refusal %s, %.1f turns and %.0f tokens per episode%n",
                fmt(all.successRate()), fmt(all.toolErrorRate()), fmt(all.refusalRate()), fmt(all.falseRefusalRate()),
                all.avgTurns() == null ? 0 : all.avgTurns(), all.avgTokens() == null ? 0 : all.avgTokens());
        System.out.printf(Locale.ROOT, "tool list: %.0f tokens a turn, %.0f per episode (sent with every model request; o200k_base)%n",
                all.toolListTokens() == null ? 0 : all.toolListTokens(), all.toolListTokensPerEpisode() == null ? 0 : all.toolListTokensPerEpisode());
        System.out.println("failures: " + all.failures());
        System.out.println("report: openagent report --store " + store.location() + " --run " + run.runId() + " --out DIR");
    }

    private static String fmt(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.3f", d);
    }
}
