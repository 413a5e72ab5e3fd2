package dev.openagent.study;

import dev.openagent.study.PaperStudy.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FindingsTest {
    @TempDir
    Path dir;

    private static Row row(String agent, String tier, String shift, double rate, double refusal) {
        return new Row(agent, tier, shift, rate, Math.max(0, rate - 0.05), Math.min(1, rate + 0.05), refusal, 200);
    }

    /** Rows shaped like the paper's results. */
    static List<Row> paperLike() {
        List<Row> rows = new ArrayList<>();
        Map<String, double[]> agents = new LinkedHashMap<>();
        // static, perception, interaction, reasoning, internalization, unsolvable refusal
        agents.put("sft", new double[]{0.99, 0.55, 0.60, 0.40, 0.30, 0.0});
        agents.put("rl", new double[]{0.99, 0.60, 0.62, 0.42, 0.30, 0.01});
        agents.put("paft-0.1", new double[]{0.99, 0.75, 0.78, 0.50, 0.60, 0.80});
        agents.put("paft-0.3", new double[]{0.985, 0.90, 0.88, 0.55, 0.70, 0.98});
        agents.put("paft-0.5", new double[]{0.98, 0.91, 0.885, 0.55, 0.70, 0.99});
        for (var e : agents.entrySet()) {
            double[] v = e.getValue();
            rows.add(row(e.getKey(), "static", null, v[0], 0));
            rows.add(row(e.getKey(), "perception", null, v[1], 0));
            rows.add(row(e.getKey(), "interaction", null, v[2], 0));
            rows.add(row(e.getKey(), "reasoning", null, v[3], 0));
            rows.add(row(e.getKey(), "internalization", null, v[4], 0));
            rows.add(row(e.getKey(), "perception", "tool.semantic-rename", v[1], 0));
            rows.add(row(e.getKey(), "interaction", "obs.format", v[2], 0));
            rows.add(row(e.getKey(), "internalization", "task.unsolvable", v[5], v[5]));
        }
        return rows;
    }

    @Test
    void paperLikeNumbersConfirmEveryFinding() {
        List<PaperStudy.Finding> f = Findings.check(paperLike(), List.of(0.1, 0.3, 0.5));
        assertEquals(5, f.size());
        f.forEach(x -> assertEquals(Findings.HOLDS, x.verdict(), x.claim() + ": " + x.evidence()));
    }

    @Test
    void contraryNumbersAreReportedAsSuch() {
        List<Row> rows = new ArrayList<>(paperLike().stream()
                .map(r -> r.agent().equals("sft") && r.shift() != null && r.shift().equals("task.unsolvable") ? row("sft", r.tier(), r.shift(), 0.6, 0.6) : r)
                .map(r -> r.agent().equals("sft") && r.shift() == null && !r.tier().equals("static") ? row("sft", r.tier(), null, 0.97, 0) : r)
                .toList());
        List<PaperStudy.Finding> f = Findings.check(rows, List.of(0.1, 0.3, 0.5));
        assertEquals(Findings.FAILS, f.get(1).verdict(), f.get(1).evidence());
        assertEquals(Findings.PARTLY, f.get(2).verdict(), f.get(2).evidence());
    }

    @Test
    void missingRowsAreNotMeasuredRatherThanGuessed() {
        List<Row> onlyStatic = paperLike().stream().filter(r -> r.tier().equals("static")).toList();
        List<PaperStudy.Finding> f = Findings.check(onlyStatic, List.of(0.1, 0.3, 0.5));
        assertEquals(Findings.HOLDS, f.get(0).verdict());
        for (int i = 1; i < f.size(); i++) assertEquals(Findings.UNMEASURED, f.get(i).verdict(), f.get(i).claim());
    }

    @Test
    void reportsRenderEveryAgentAndTier() throws Exception {
        PaperStudy.Result r = new PaperStudy.Result("quick", 1, paperLike(), Map.of(), Findings.check(paperLike(), List.of(0.1, 0.3, 0.5)),
                List.of("a note"), new LinkedHashMap<>(Map.of("total", 1.0)));
        String md = StudyReport.markdown(r);
        for (String a : List.of("sft", "rl", "paft-0.1", "paft-0.3", "paft-0.5")) assertTrue(md.contains("| " + a + " |"), a);
        assertTrue(md.contains("| agent | static | perception | interaction | reasoning | internalization |"));
        assertTrue(md.contains("(refused 0.980)"));
        StudyReport.writeHtml(r, dir.resolve("report.html"));
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.contains("task.unsolvable") && html.contains("a note"));
        assertTrue(!html.contains("<script") && !html.contains("http"), "self-contained");
        var json = PaperStudy.json(r);
        assertEquals(40, json.path("rows").size());
        var first = json.path("rows").get(0);
        for (String k : List.of("agent", "tier", "shift", "success_rate", "ci_low", "ci_high", "refusal_rate")) assertTrue(first.has(k), k);
        assertTrue(first.path("shift").isNull());
    }
}
