package dev.openagent.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeResult;
import dev.openagent.store.RunInfo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Writes a run's reports into a directory: report.md, report.html (self-contained) and summary.json. */
public final class Reports {
    public static final int DEFAULT_MAX_TRANSCRIPTS = 2000;

    private Reports() {}

    /** The files written. */
    public record Written(Path markdown, Path html, Path summary) {}

    public static Written write(Path dir, RunInfo run, List<EpisodeResult> episodes, int maxTranscripts) {
        return write(dir, run, episodes, maxTranscripts, Map.of());
    }

    /** As {@link #write(Path, RunInfo, List, int)}, with the agents' own transcripts by episode id (see {@link ReportData}). */
    public static Written write(Path dir, RunInfo run, List<EpisodeResult> episodes, int maxTranscripts,
                                Map<String, AgentTranscript> agentTranscripts) {
        ObjectNode data = ReportData.build(run, episodes, maxTranscripts, agentTranscripts);
        Written w = new Written(dir.resolve("report.md"), dir.resolve("report.html"), dir.resolve("summary.json"));
        try {
            Files.createDirectories(dir);
            Files.writeString(w.markdown(), MarkdownReport.render(data), StandardCharsets.UTF_8);
            Files.writeString(w.html(), HtmlReport.render(data), StandardCharsets.UTF_8);
            Files.writeString(w.summary(), Json.pretty(data.get("summary")) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserInputException("cannot write the report to " + dir + ": " + e.getMessage(), e);
        }
        return w;
    }
}
