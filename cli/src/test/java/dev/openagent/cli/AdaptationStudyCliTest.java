package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.adapt.AdaptationStudy;
import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code study adaptation} end to end at its hidden test budget ({@code --tiny}: a few steps, four tasks a condition,
 * repairs of 4 and 8 episodes, nothing counted as recovered so that every round of both repairs runs): the scenarios,
 * rows, curves, findings and files a user reads, whatever the numbers. The scenarios are written down here, not read
 * from the study's code.
 */
class AdaptationStudyCliTest {
    /** One shift per tier, then the one the watch names for a tool-renaming upgrade. */
    private static final List<String> SCENARIOS = List.of("perception", "interaction", "reasoning", "internalization", "security", "watch");
    private static final List<String> SPECS = List.of("tool.name-noise", "obs.runtime-error", "logic.conflict", "tool.removal",
            "obs.injection:severity=3", "tool.semantic-rename");
    private static final List<Integer> POINTS = List.of(0, 4, 8);

    @TempDir
    Path dir;

    @Test
    void theTinyStudyRunsEveryRepairRoundByRoundAndWritesItsFiles() throws Exception {
        Path out = dir.resolve("adaptation");
        CliTest.Result r = CliTest.run("study", "adaptation", "--tiny", "--out", out.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode json = r.json();
        assertEquals("adaptation", json.path("study").asText());
        assertEquals("tiny", json.path("budget").asText());
        List<String> names = new ArrayList<>(), specs = new ArrayList<>();
        json.path("scenarios").forEach(s -> {
            names.add(s.path("name").asText());
            specs.add(s.path("spec").asText());
        });
        assertEquals(SCENARIOS, names);
        assertEquals(SPECS, specs, "the watch names the renaming upgrade tool.semantic-rename");
        assertTrue(json.path("scenarios").get(5).path("source").asText().contains("watch diff"), json.path("scenarios").get(5).toString());

        JsonNode rows = json.path("rows");
        assertEquals(SCENARIOS.size() * 2 * 2, rows.size(), "a row per scenario, start and repair");
        List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>();
        for (JsonNode row : rows) {
            checks.add(() -> {
                String what = row.path("scenario").asText() + "/" + row.path("start").asText() + "/" + row.path("method").asText();
                assertTrue(List.of("sft", "paft").contains(row.path("start").asText()), what);
                assertTrue(List.of("offline", "online").contains(row.path("method").asText()), what);
                // Nothing counts as recovered at this budget: every round ran, and the curve has a point per round.
                assertTrue(row.path("recovered_at").isNull(), what);
                assertEquals(8, row.path("episodes").asInt(), what);
                List<Integer> xs = new ArrayList<>();
                row.path("curve").forEach(p -> xs.add(p.path("episodes").asInt()));
                assertEquals(POINTS, xs, what);
                assertEquals(row.path("target_before"), row.path("curve").get(0).path("target"), what + ": the curve starts at the start");
                assertEquals(row.path("target_after"), row.path("curve").get(2).path("target"), what + ": and ends where the repair stopped");
                // The start's own figures are the row's "before", the same test tasks for every repair of that start.
                JsonNode start = json.path("starts").path(row.path("start").asText());
                assertEquals(start.path("static"), row.path("static_before"), what);
                assertEquals(start.path(row.path("spec").asText()), row.path("target_before"), what);
                for (String f : List.of("static_before", "static_after", "target_after", "others_before", "others_after")) {
                    JsonNode x = row.path(f);
                    double v = x.path("success_rate").asDouble(-1);
                    assertTrue(v >= 0 && v <= 1 && x.path("ci_low").asDouble() <= v && v <= x.path("ci_high").asDouble(), what + " " + f + " " + x);
                }
                assertEquals(4, row.path("static_after").path("episodes").asInt(), what + ": static re-evaluated after the repair");
                assertEquals(5 * 4, row.path("others_after").path("episodes").asInt(), what + ": the other five scenarios' shifts pooled");
                Path repair = out.resolve("repairs").resolve(row.path("scenario").asText() + "-" + row.path("start").asText() + "-" + row.path("method").asText());
                Path last = row.path("method").asText().equals("offline") ? repair.resolve("round-2") : repair.resolve("online/checkpoints/group-0002");
                assertTrue(Files.isRegularFile(last.resolve("weights.bin")), what + ": the checkpoint the repair stopped with, " + last);
            });
        }
        assertAll(checks);
        assertEquals(5, json.path("findings").size());
        for (JsonNode f : json.path("findings")) {
            for (String k : List.of("claim", "verdict", "evidence")) assertFalse(f.path(k).asText().isBlank(), k + " in " + f);
        }
        for (String start : List.of("sft", "paft")) {
            assertTrue(Files.isRegularFile(out.resolve("policies").resolve(start).resolve("weights.bin")), start);
            assertTrue(json.path("training").has(start), start);
        }

        for (String f : List.of("study.md", "study.html", "results.json", "curves.csv")) assertTrue(Files.isRegularFile(out.resolve(f)), f);
        assertEquals(json, Json.parse(Files.readString(out.resolve("results.json"))));
        List<String> csv = Files.readAllLines(out.resolve("curves.csv"));
        assertEquals("scenario,spec,start,method,episodes,success_rate,ci_low,ci_high,n", csv.getFirst());
        assertEquals(1 + rows.size() * POINTS.size(), csv.size(), "a line per point of every curve");
        String html = Files.readString(out.resolve("study.html"));
        for (String s : SCENARIOS) assertTrue(html.contains("id=\"curve-" + s + "\""), "a chart for " + s);
        assertTrue(html.contains("OpenAgentCharts.lines("), "drawn by the shared chart code");
        String md = Files.readString(out.resolve("study.md"));
        assertTrue(md.contains("| scenario | start | repair |") && md.contains("## Findings"), md);
        assertTrue(r.err().contains(out.resolve("study.html").toString()), r.err());
    }

    @Test
    void theWatchNamesTheRenamingUpgrade() {
        AdaptationStudy.Scenario s = StudyCommand.AdaptationStudyCommand.watched(1);
        assertEquals("tool.semantic-rename", s.spec());
        assertEquals("perception", s.tier());
        assertTrue(s.source().matches("watch diff of poi's \\d+ tools .*: \\d+ changes, \\d+ named tool.semantic-rename"), s.source());
    }

    @Test
    void badInputIsRefusedWithExitTwo() {
        CliTest.Result from = CliTest.run("study", "adaptation", "--tiny", "--from", dir.resolve("nowhere").toString(), "--out", dir.resolve("x").toString());
        assertEquals(2, from.code(), from.err());
        assertTrue(from.err().contains("--from"), from.err());
        // A directory that is not a paper study's: one line naming what is missing, not a trace.
        CliTest.Result notPaper = CliTest.run("study", "adaptation", "--tiny", "--from", dir.toString(), "--out", dir.resolve("x").toString());
        assertEquals(2, notPaper.code(), notPaper.err());
        assertTrue(notPaper.err().contains("policies/sft") && !notPaper.err().contains("\tat "), notPaper.err());
        CliTest.Result seed = CliTest.run("study", "adaptation", "--tiny", "--seed", "one", "--out", dir.resolve("x").toString());
        assertEquals(2, seed.code(), seed.err());
        assertFalse(Files.exists(dir.resolve("x")), "nothing is written on bad input");
    }
}
