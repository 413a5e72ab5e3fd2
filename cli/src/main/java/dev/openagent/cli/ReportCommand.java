package dev.openagent.cli;

import dev.openagent.report.Reports;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunInfo;
import dev.openagent.store.RunProgress;
import dev.openagent.store.StoreLocation;
import dev.openagent.results.EpisodeResult;
import dev.openagent.store.RunStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;

@Command(name = "report", mixinStandardHelpOptions = true, description = {"Write a run's report (Markdown, offline HTML, JSON).",
        "report.md, a self-contained report.html (tier x shift heatmap, agent bars, trajectory browser; opens offline) and",
        "summary.json. Without --run, the most recently updated run. While shards are still running, the report covers",
        "what is scored so far and says it is partial."})
final class ReportCommand implements Runnable {
    @Mixin
    Options.Store store;

    @Option(names = "--run", description = "Run id (see --list).")
    String run;

    @Option(names = "--out", description = "Directory to write the report into.")
    Path out;

    @Option(names = "--list", description = "List the runs in the store instead.")
    boolean list;

    @Option(names = "--max-transcripts", defaultValue = "" + Reports.DEFAULT_MAX_TRANSCRIPTS,
            description = "Transcripts embedded in the HTML page at most, spread over all conditions (default: ${DEFAULT-VALUE}).")
    int maxTranscripts;

    @Override
    public void run() {
        if (!list && out == null) throw new Main.UserError("--out DIR is required (or --list)");
        if (maxTranscripts < 0) throw new Main.UserError("--max-transcripts must be >= 0");
        StoreLocation where = store.location();
        try (ResultStore results = ResultStore.openExisting(where)) {
            List<RunInfo> runs = results.runs();
            if (list) {
                if (runs.isEmpty()) System.out.println("no runs in " + where);
                for (RunInfo r : runs) {
                    RunProgress p = results.progress(r.id());
                    // Proxy sessions without a task are recorded, not scored: say so rather than count them as scored.
                    String unscored = p.finished() > p.scored() ? " (" + (p.finished() - p.scored()) + " without a task)" : "";
                    System.out.printf("%s  %-10s %6d of %6d scored%s  updated %s  %s%n", r.id(), r.status(), p.scored(), r.planned(), unscored,
                            r.updatedAt(), r.name());
                }
                return;
            }
            if (runs.isEmpty()) throw new Main.UserError("no runs in " + where);
            RunInfo chosen = run == null ? runs.getFirst() : results.run(run).orElseThrow(() -> new Main.UserError(
                    "no run '" + run + "' in " + where + " (runs: " + String.join(", ", runs.stream().map(RunInfo::id).toList()) + ")"));
            List<EpisodeResult> episodes = results.episodes(chosen.id());
            Reports.Written w = Reports.write(out, chosen, episodes, maxTranscripts);
            long scored = episodes.stream().filter(e -> !e.infraError()).count();
            String progress = scored < chosen.planned() ? "partial: " + scored + " of " + chosen.planned() + " planned episodes scored so far" : null;
            // A run left "partial" by a shard says so once.
            String state = progress == null ? chosen.status().id() : chosen.status() == RunStatus.PARTIAL ? progress : chosen.status() + "; " + progress;
            System.out.println("report of " + chosen.id() + " (" + state + "):");
            System.out.println("  " + w.markdown());
            System.out.println("  " + w.html());
            System.out.println("  " + w.summary());
        }
    }
}
