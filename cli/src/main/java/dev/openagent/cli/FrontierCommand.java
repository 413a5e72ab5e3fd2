package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.frontier.FrontierProgress;
import dev.openagent.frontier.FrontierReport;
import dev.openagent.frontier.FrontierRun;
import dev.openagent.frontier.FrontierSearch;
import dev.openagent.run.AgentSpec;
import dev.openagent.run.EvalAgent;
import dev.openagent.run.RunControl;
import dev.openagent.sandbox.Split;
import dev.openagent.store.ResultStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "frontier", sortOptions = false, mixinStandardHelpOptions = true,
        description = {"Find what breaks an agent first: per shift, the weakest severity at which its success falls at least --drop below its "
                + "static success on the same tasks (paired, at --confidence), by sequential testing within --budget episodes; then compositions "
                + "of the shifts it survived.",
                "Writes frontier.json, report.html, failures.jsonl and focus.json (for export --focus and train --focus) into --out.",
                "Resumable: rerun the same command to continue (docs/frontier.md).",
                "Exit code 0 when the search ran to its end, 3 when infrastructure errors stopped it."})
final class FrontierCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec command;

    @Option(names = "--agent", required = true, description = "The agent: " + Agents.KNOWN + ".")
    String agent;

    @Option(names = "--env", split = ",", description = "Environments (ids or environment files), comma-separated (default: poi).")
    List<String> envs = List.of("poi");

    @Mixin
    Options.Shift shift = new Options.Shift("all");

    @Option(names = "--budget", paramLabel = "EPISODES", description = "The most episodes the search uses, static ones included (default: ${DEFAULT-VALUE}).")
    int budget = 5000;

    @Option(names = "--drop", paramLabel = "D", description = "The drop in success that breaks the agent, in (0, 1] (default: ${DEFAULT-VALUE}).")
    double drop = 0.10;

    @Option(names = "--confidence", paramLabel = "C", description = "Confidence of each verdict's interval, in (0, 1) (default: ${DEFAULT-VALUE}).")
    double confidence = 0.95;

    @Option(names = "--max-tasks", paramLabel = "N", description = "The most tasks one test runs; an undecided test is then decided by its estimate (default: ${DEFAULT-VALUE}).")
    int maxTasks = FrontierSearch.Settings.MAX_TASKS;

    @Option(names = "--grid", description = "Run the exhaustive grid instead (every shift at every severity on --max-tasks tasks, verdicts by the estimate), "
            + "to check a frontier against (bin/frontier-vs-grid).")
    boolean grid;

    @Mixin
    Options.Seed seed;

    @Mixin
    Options.SplitOption split;

    @Option(names = "--difficulty", description = "Difficulty level; 0 mixes all levels (default: ${DEFAULT-VALUE}).")
    int difficulty;

    @Option(names = "--concurrency", description = "Episodes in flight at once (default: ${DEFAULT-VALUE}).")
    int concurrency = 8;

    @Mixin
    Options.Store store;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write the frontier's files (default: runs/RUN-ID).")
    Path out;

    @Option(names = "--no-progress", description = "Plain progress lines instead of a progress bar.")
    boolean noProgress;

    @Mixin
    Options.JsonOutput json;

    @Mixin
    OpenAiOptions openai;

    @Override
    public Integer call() {
        if (budget < 1) throw new Main.UserError("--budget must be at least 1 episode, got " + budget);
        if (!(drop > 0 && drop <= 1)) throw new Main.UserError("--drop must be in (0, 1], got " + drop);
        if (!(confidence > 0 && confidence < 1)) throw new Main.UserError("--confidence must be in (0, 1), got " + confidence);
        if (maxTasks < 1) throw new Main.UserError("--max-tasks must be at least 1");
        if (concurrency < 1) throw new Main.UserError("--concurrency must be at least 1");
        if (difficulty < 0) throw new Main.UserError("--difficulty must be 0 (any) or a level");
        Split.parse(split.name);
        String spec = shift.spec();
        List<String> envIds = envs.stream().map(e -> Options.Env.resolve(Main.catalog(command), e.strip(), null).id()).toList();
        AgentSpec agentSpec = openai.apply(agent.strip(), null);
        if ((openai.baseUrl != null || openai.model != null) && !agentSpec.kind().equals("openai")) {
            throw new Main.UserError("--base-url and --model configure the openai agent, but the agent is " + agentSpec.kind());
        }
        boolean model = agentSpec.kind().equals("openai");
        // Every agent is checked before the store is opened: a model's settings, any other agent by resolving it.
        EvalAgent resolved = model ? null : Agents.forEval(agentSpec, seed.value, null);
        if (model) Agents.openAiConfig(agentSpec);
        FrontierSearch.Settings settings = FrontierSearch.Settings.of(drop, confidence, budget, maxTasks);
        if (grid) settings = settings.asGrid();
        RunControl control = RunControl.unlimited();
        Agents.RunContext ctx = null;
        try (ResultStore results = ResultStore.open(store.location())) {
            ctx = new Agents.RunContext(results, true, control, new ArrayList<>());
            EvalAgent evalAgent = model ? Agents.forEval(agentSpec, seed.value, ctx) : resolved;
            FrontierRun.Request request = new FrontierRun.Request(evalAgent, envIds, spec, settings, seed.value, split.name, difficulty, concurrency);
            FrontierProgress progress = FrontierProgress.forConsole(!noProgress, System.err, budget);
            FrontierRun.Result r;
            try {
                r = FrontierRun.run(Main.catalog(command), results, control, progress, progress, request);
            } finally {
                progress.done();
            }
            if (r.internalError() != null) {
                System.err.println("openagent: an episode failed with an internal error (recorded as an error; please report it):");
                r.internalError().printStackTrace(System.err);
            }
            Path dir = out != null ? out : Path.of("runs", r.runId());
            FrontierReport.Written w = FrontierReport.write(dir, r, evalAgent.label(), store.location().toString(), FrontierRun.examples(results, r));
            if (json.on) {
                ObjectNode o = FrontierReport.json(r, evalAgent.label(), store.location().toString());
                o.put("out", dir.toString());
                json.print(o);
            } else {
                System.out.print(FrontierReport.text(r, evalAgent.label()));
                System.out.printf("report: %s; JSON: %s; example failures: %s (openagent show %s); focus: %s%n", w.html(), w.json(), w.failures(),
                        w.failures(), w.focus());
            }
            return r.frontier().complete() ? 0 : EvalCommand.INCOMPLETE;
        } finally {
            if (ctx != null) ctx.close();
        }
    }
}
