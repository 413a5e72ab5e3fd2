package dev.openagent.study;

import dev.openagent.study.PaperStudy.Row;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
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
        agents.put("sft-4x-data", new double[]{0.99, 0.57, 0.61, 0.40, 0.30, 0.0});
        agents.put("sft-4x-steps", new double[]{0.995, 0.58, 0.60, 0.41, 0.31, 0.0});
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
            rows.add(new Row(e.getKey(), "security", null, v[0], v[0] - 0.05, Math.min(1, v[0] + 0.05), 0, 200, 0.0));
        }
        return rows;
    }

    /** RL's training record with rollouts under shifts, as the paper study writes it. */
    static Map<String, ObjectNode> rlShifted() {
        ObjectNode rl = Json.object().put("groups", 240).put("shifted_groups", 120).put("groups_with_signal", 70);
        return Map.of("rl", rl);
    }

    @Test
    void paperLikeNumbersConfirmEveryFinding() {
        List<PaperStudy.Finding> f = Findings.check(paperLike(), List.of(0.1, 0.3, 0.5), rlShifted());
        assertEquals(8, f.size());
        f.forEach(x -> assertEquals(Findings.HOLDS, x.verdict(), x.claim() + ": " + x.evidence()));
        assertTrue(f.get(6).evidence().contains("120 under a shift, 70 with signal"), f.get(6).evidence());
    }

    /** The scaling ablation: longer training that recovers half of SFT's drop cures it, and the finding says so. */
    @Test
    void scalingThatRecoversTheDropIsReportedAsCuring() {
        List<Row> rows = paperLike().stream()
                .map(r -> r.agent().equals("sft-4x-steps") && r.shift() == null && (r.tier().equals("perception") || r.tier().equals("interaction"))
                        ? row(r.agent(), r.tier(), null, 0.9, 0) : r)
                .toList();
        PaperStudy.Finding scaling = Findings.check(rows, List.of(0.1, 0.3, 0.5), rlShifted()).get(5);
        assertEquals(Findings.FAILS, scaling.verdict(), scaling.evidence());
        assertTrue(scaling.evidence().contains("sft-4x-steps: static 0.995"), scaling.evidence());
    }

    /** Boundary blindness is only confirmed when RL's rollouts met shifted (and so unsolvable) tasks. */
    @Test
    void boundaryBlindnessNeedsShiftedRollouts() {
        ObjectNode staticOnly = Json.object().put("groups", 240).put("shifted_groups", 0).put("groups_with_signal", 3);
        PaperStudy.Finding f = Findings.check(paperLike(), List.of(0.1, 0.3, 0.5), Map.of("rl", staticOnly)).get(6);
        assertEquals(Findings.PARTLY, f.verdict(), f.evidence());
    }

    /** The security tier is stated per agent with utility and attack success, whatever it shows. */
    @Test
    void anAgentThatIsHijackedMakesTheSecurityFindingPartial() {
        List<Row> rows = paperLike().stream()
                .map(r -> r.agent().equals("rl") && r.tier().equals("security") ? new Row("rl", "security", null, 0.3, 0.25, 0.35, 0, 200, 0.6) : r)
                .toList();
        PaperStudy.Finding security = Findings.check(rows, List.of(0.1, 0.3, 0.5), rlShifted()).get(7);
        assertEquals(Findings.PARTLY, security.verdict(), security.evidence());
        assertTrue(security.evidence().contains("rl utility 0.300 [0.250, 0.350], attacked 0.600"), security.evidence());
        assertTrue(security.evidence().contains("sft utility 0.990"), security.evidence());
    }

    @Test
    void contraryNumbersAreReportedAsSuch() {
        List<Row> rows = new ArrayList<>(paperLike().stream()
                .map(r -> r.agent().equals("sft") && r.shift() != null && r.shift().equals("task.unsolvable") ? row("sft", r.tier(), r.shift(), 0.6, 0.6) : r)
                .map(r -> r.agent().equals("sft") && r.shift() == null && !r.tier().equals("static") ? row("sft", r.tier(), null, 0.97, 0) : r)
                .toList());
        List<PaperStudy.Finding> f = Findings.check(rows, List.of(0.1, 0.3, 0.5), rlShifted());
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
        PaperStudy.Result r = new PaperStudy.Result(PaperStudy.ID, "quick", 1, paperLike(), Map.of(), Findings.check(paperLike(), List.of(0.1, 0.3, 0.5)),
                List.of("a note"), new LinkedHashMap<>(Map.of("total", 1.0)));
        String md = StudyReport.markdown(r);
        for (String a : List.of("sft", "rl", "paft-0.1", "paft-0.3", "paft-0.5", "sft-4x-data", "sft-4x-steps")) {
            assertTrue(md.contains("| " + a + " |"), a);
        }
        assertTrue(md.contains("| agent | static | perception | interaction | reasoning | internalization |"));
        assertTrue(md.contains("(refused 0.980)"));
        StudyReport.writeHtml(r, dir.resolve("report.html"));
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.contains("task.unsolvable") && html.contains("a note"));
        assertTrue(!html.contains("<script") && !html.contains("http"), "self-contained");
        var json = PaperStudy.json(r);
        assertEquals(63, json.path("rows").size());
        assertTrue(md.contains(", attacked 0.000"), "the security tier's cells show attack success");
        assertEquals("paper", json.path("study").asText());
        var first = json.path("rows").get(0);
        for (String k : List.of("agent", "tier", "shift", "success_rate", "ci_low", "ci_high", "refusal_rate")) assertTrue(first.has(k), k);
        assertTrue(first.path("shift").isNull());
    }
}
