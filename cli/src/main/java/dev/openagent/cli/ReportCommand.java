package dev.openagent.cli;

import dev.openagent.report.Reports;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;

@Command(name = "report", mixinStandardHelpOptions = true, description = {"Write a run's report (Markdown, offline HTML, JSON).",
        "report.md, a self-contained report.html (tier x shift heatmap, agent bars, trajectory browser; opens offline) and",
        "summary.json. Without --run, the most recently updated run."})
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
        try (ResultStore results = ResultStore.openExisting(store.file)) {
            List<RunInfo> runs = results.runs();
            if (list) {
                if (runs.isEmpty()) System.out.println("no runs in " + store.file);
                for (RunInfo r : runs) {
                    System.out.printf("%s  %-10s %5d planned  updated %s  %s%n", r.id(), r.status(), r.planned(), r.updatedAt(), r.name());
                }
                return;
            }
            if (runs.isEmpty()) throw new Main.UserError("no runs in " + store.file);
            RunInfo chosen = run == null ? runs.getFirst() : results.run(run).orElseThrow(() -> new Main.UserError(
                    "no run '" + run + "' in " + store.file + " (runs: " + String.join(", ", runs.stream().map(RunInfo::id).toList()) + ")"));
            Reports.Written w = Reports.write(out, chosen, results.episodes(chosen.id()), maxTranscripts);
            System.out.println("report of " + chosen.id() + " (" + chosen.status() + "):");
            System.out.println("  " + w.markdown());
            System.out.println("  " + w.html());
            System.out.println("  " + w.summary());
        }
    }
}
