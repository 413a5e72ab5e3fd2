package dev.openagent.study;

import dev.openagent.json.Json;
import dev.openagent.policy.ActionSpace;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyConfig;
import dev.openagent.policy.Trainer;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Environment;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
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

/**
 * The paper study's ceilings: per condition, the share of its test tasks the policy's action space can
 * express, on every row of every agent (a tier's pooling its shifts' tasks), and in the text, HTML and JSON
 * a user reads. tool.set-change names its replacement tools in a notice only, which a pointer cannot call
 * (ShiftReplayTest), so its ceiling is below 1; every static poi task is expressible (TargetsTest).
 */
class CeilingsTest {
    static final int TASKS = 20;

    @TempDir
    Path dir;

    @Test
    void everyRowCarriesItsConditionsCeilingAndTheReportsShowIt() throws Exception {
        Environment poi = Environments.get("poi");
        List<PaperStudy.Condition> conditions = List.of(
                new PaperStudy.Condition(PaperStudy.STATIC, null, poi, ShiftStack.NONE),
                new PaperStudy.Condition("perception", "query.paraphrase", poi, ShiftSpec.parseStack("query.paraphrase")),
                new PaperStudy.Condition("interaction", "tool.set-change", poi, ShiftSpec.parseStack("tool.set-change")),
                new PaperStudy.Condition("interaction", "obs.format", poi, ShiftSpec.parseStack("obs.format")));
        PaperStudy.Budget budget = new PaperStudy.Budget("test", 1, 16, 1, 2, 2, 0.5, 1, PaperStudy.PAFT_MIX, TASKS, List.of(0.3), false);
        Map<String, Double> seconds = new LinkedHashMap<>();
        Map<String, ActionSpace.Ceiling> ceilings;
        Trainer.Result trained = Trainer.train(Trainer.Options.of(Trainer.Method.SFT, "poi", 1, 3).withConfig(PolicyConfig.tiny()), line -> {});
        try (Policy p = trained.policy()) {
            ceilings = PaperStudy.ceilings(p, conditions, budget, 1, seconds);
        }
        assertTrue(seconds.containsKey(PaperStudy.CEILINGS), "the ceilings' time is reported: " + seconds);
        assertEquals(new ActionSpace.Ceiling(TASKS, TASKS), ceilings.get(PaperStudy.STATIC));
        assertEquals(new ActionSpace.Ceiling(TASKS, TASKS), ceilings.get("query.paraphrase"));
        assertEquals(new ActionSpace.Ceiling(TASKS, TASKS), ceilings.get("obs.format"));
        ActionSpace.Ceiling set = ceilings.get("tool.set-change");
        assertTrue(set.tasks() == TASKS && set.expressible() > 0 && set.expressible() < TASKS, "tool.set-change: " + set);

        List<PaperStudy.Row> rows = new ArrayList<>();
        for (String agent : List.of("sft", "paft-0.3")) {
            rows.add(new PaperStudy.Row(agent, PaperStudy.STATIC, null, 1, 0.9, 1, 0, TASKS));
            rows.add(new PaperStudy.Row(agent, "perception", null, 0.5, 0.3, 0.7, 0, TASKS));
            rows.add(new PaperStudy.Row(agent, "interaction", null, 0.25, 0.1, 0.4, 0, 2 * TASKS));
            rows.add(new PaperStudy.Row(agent, "perception", "query.paraphrase", 0.5, 0.3, 0.7, 0, TASKS));
            rows.add(new PaperStudy.Row(agent, "interaction", "tool.set-change", 0.25, 0.1, 0.4, 0, TASKS));
            rows.add(new PaperStudy.Row(agent, "interaction", "obs.format", 0.25, 0.1, 0.4, 0, TASKS));
        }
        List<PaperStudy.Row> with = PaperStudy.withCeilings(rows, conditions, ceilings);
        double interaction = new ActionSpace.Ceiling(set.expressible() + TASKS, 2 * TASKS).rate();
        for (PaperStudy.Row r : with) {
            double expected = r.shift() != null ? ceilings.get(r.shift()).rate() : r.tier().equals("interaction") ? interaction : 1.0;
            assertEquals(expected, r.ceiling(), r.toString());
        }

        PaperStudy.Result result = new PaperStudy.Result(PaperStudy.ID, "test", 1, with, Map.of(), Findings.check(with, List.of(0.3)), List.of(), seconds);
        String md = StudyReport.markdown(result);
        String shown = String.format(java.util.Locale.ROOT, "%.3f", set.rate());
        assertTrue(md.contains("| tier | shift | ceiling | sft | paft-0.3 |"), md);
        assertTrue(md.contains("| interaction | tool.set-change | " + shown + " | 0.250 | 0.250 |"), md);
        assertTrue(md.contains(String.format(java.util.Locale.ROOT, "| *ceiling* | 1.000 | 1.000 | %.3f |", interaction)), md);
        StudyReport.writeHtml(result, dir.resolve("study.html"));
        String html = Files.readString(dir.resolve("study.html"));
        assertTrue(html.contains("<th>ceiling</th>") && html.contains("<td class=\"l\">tool.set-change</td><td>" + shown + "</td>"), html);
        var json = PaperStudy.json(result);
        for (var row : json.path("rows")) assertTrue(row.path("ceiling").isNumber(), Json.write(row));

        // Rows without ceilings (the PAFT mix ablation) show no column.
        PaperStudy.Result none = new PaperStudy.Result(PaperStudy.ID, "test", 1, rows, Map.of(), List.of(), List.of(), Map.of());
        assertTrue(!StudyReport.markdown(none).contains("ceiling"));
        assertTrue(!PaperStudy.json(none).path("rows").get(0).has("ceiling"));
    }
}
