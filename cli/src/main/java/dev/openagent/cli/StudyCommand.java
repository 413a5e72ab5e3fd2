package dev.openagent.cli;

import dev.openagent.json.Json;
import dev.openagent.run.EpisodeResult;
import dev.openagent.study.PaperStudy;
import dev.openagent.study.StudyReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

@Command(name = "study", description = "Run a study end to end (train, evaluate under shifts, report).",
        subcommands = {StudyCommand.Paper.class})
final class StudyCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    @Command(name = "paper", description = {
            "The paper's experiment on poi: train SFT, RL (from SFT) and PAFT (alpha 0.1, 0.3, 0.5) on CPU, evaluate each",
            "on the static test split, on every shift (grouped by tier) and on domain.transfer to medical when it exists,",
            "print the table, check the paper's findings and write report.html (the evaluation report of every episode),",
            "study.html / study.md (these tables and the findings) and results.json."})
    static final class Paper implements Runnable {
        @Option(names = "--quick", description = "Smaller training and evaluation budgets (minutes instead of tens of minutes).")
        boolean quick;

        @Option(names = "--seed", defaultValue = "1", description = "Seed of training and test tasks (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--out", defaultValue = "runs/study-paper", description = "Directory for the report and the policies (default: ${DEFAULT-VALUE}).")
        Path out;

        @Option(names = "--json", description = "Print {\"rows\": [...]} (and findings, notes, timings) as JSON instead of the table.")
        boolean json;

        @Override
        public void run() {
            PaperStudy.Budget budget = quick ? PaperStudy.Budget.quick() : PaperStudy.Budget.full();
            long t0 = System.nanoTime();
            List<EpisodeResult> episodes = new ArrayList<>();
            PaperStudy.Result r = PaperStudy.run(budget, seed, out, line -> System.err.println(line), episodes::addAll);
            r.seconds().put("total", Math.round((System.nanoTime() - t0) / 1e7) / 100.0);
            String md = StudyReport.markdown(r);
            StudyReport.writeMarkdown(md, out.resolve("study.md"));
            StudyReport.writeHtml(r, out.resolve("study.html"));
            StudyReport.writeJson(Json.pretty(PaperStudy.json(r)), out.resolve("results.json"));
            StudyReport.writeEvaluationReport(r, episodes, out);
            if (json) {
                System.out.println(Json.pretty(PaperStudy.json(r)));
            } else {
                System.out.println(md);
                System.out.println("report: " + out.resolve("report.html") + " (every episode; heatmap, bars, transcripts)");
                System.out.println("study:  " + out.resolve("study.html") + " (these tables and the findings)");
            }
        }
    }
}
