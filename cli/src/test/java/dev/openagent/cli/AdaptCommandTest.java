package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.store.CurvePoint;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunInfo;
import dev.openagent.store.RunStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code openagent adapt} on the tiny policy cli's tests share: a few optimiser steps and a few test tasks per condition,
 * so what is checked is the plumbing (targets, the training mix, the checkpoint), not how much adaptation helps.
 */
class AdaptCommandTest {
    @TempDir
    Path dir;

    private CliTest.Result adapt(String... args) {
        List<String> all = new ArrayList<>(List.of("adapt", "--policy", TinyPolicy.checkpoint().toString(), "--seed", "2"));
        all.addAll(List.of(args));
        return CliTest.run(all.toArray(String[]::new));
    }

    private static JsonNode row(JsonNode out, String group, String condition) {
        for (JsonNode r : out.path("rows")) {
            if (r.path("group").asText().equals(group) && r.path("condition").asText().equals(condition)) return r;
        }
        throw new AssertionError("no row " + group + "/" + condition + " in " + out.path("rows"));
    }

    /** The episodes a row ran were under this spec, and nothing else. */
    private static void ranUnder(JsonNode row, String spec) {
        assertEquals(1, row.path("conditions").size(), row.toString());
        assertEquals(ShiftSpec.parseStack(spec), ShiftSpec.parseStack(row.path("conditions").get(0).asText()), row.toString());
    }

    @Test
    void adaptWritesACheckpointThatLoadsAndMeasuresBeforeAndAfterOnTheGivenShifts() throws Exception {
        Path out = dir.resolve("adapted");
        Path store = dir.resolve("curves.db");
        CliTest.Result r = adapt("--shift", "obs.redirect;tool.name-noise:severity=2", "--episodes", "40", "--replay", "0", "--tasks", "3",
                "--out", out.toString(), "--store", store.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode o = r.json();
        assertCurveIsStored(o, store);
        // Before and after on each target, run under it, on the same number of test tasks.
        for (String spec : List.of("obs.redirect:severity=2", "tool.name-noise:severity=2")) {
            JsonNode t = row(o, "target", spec);
            ranUnder(t, spec);
            assertEquals(3, t.path("before").path("episodes").asInt(), t.toString());
            assertEquals(3, t.path("after").path("episodes").asInt(), t.toString());
        }
        assertEquals(6, row(o, "targets", "targets").path("after").path("episodes").asInt());
        assertEquals("[\"none\"]", row(o, "static", "static").path("conditions").toString());
        JsonNode perception = row(o, "perception", "perception");
        assertTrue(perception.path("conditions").size() > 3 && perception.path("before").path("episodes").asInt() == 3 * perception.path("conditions").size(),
                perception.toString());
        JsonNode low = row(o, "static", "static").path("after");
        assertTrue(low.has("success_rate") && low.has("ci_low") && low.has("ci_high"), "the figures' JSON names: " + low);
        assertTrue(low.path("ci_low").asDouble() <= low.path("success_rate").asDouble() && low.path("success_rate").asDouble() <= low.path("ci_high").asDouble());

        // Replay 0: every demonstrated episode ran under a target, and only targets were drawn.
        JsonNode training = Json.parse(Files.readString(out.resolve("training.json")));
        assertEquals("paft", training.path("method").asText());
        assertEquals(TinyPolicy.checkpoint().toString(), training.path("init").asText());
        assertTrue(training.path("episodes").asInt() > 0);
        assertEquals(training.path("episodes").asInt(), training.path("shifted_episodes").asInt(), "every episode shifted at replay 0");
        assertEquals(List.of("obs.redirect:severity=2", "tool.name-noise:severity=2"), names(training.path("shift_weights")));
        assertEquals(16, training.path("batch").asInt(), "the checkpoint's own batch");
        assertEquals(0.001, training.path("lr").asDouble(), 1e-7, "a quarter of the checkpoint's peak learning rate (4e-3)");
        assertEquals(2, training.path("adaptation").path("targets").size());

        // Not a terminal: plain progress lines, the last at 100%.
        assertTrue(r.err().contains("progress: 100% of the adaptation"), r.err());
        assertTrue(r.err().lines().noneMatch(l -> l.contains("\r")), "no bar redraws off a terminal");

        CliTest.Result e = CliTest.run("eval", "--agent", "policy:" + out, "--shift", "obs.redirect", "--tasks", "2",
                "--store", dir.resolve("runs.db").toString(), "--no-progress", "--json");
        assertEquals(0, e.code(), e.err());
        assertEquals(4, e.json().path("episodes").asInt(), e.out());
    }

    /**
     * {@code --store}: a run of kind adapt, complete, with the training loss per step and each row's success (but the
     * single catalog shifts') before, at step 0, and after, at the last step, with its Wilson interval.
     */
    private static void assertCurveIsStored(JsonNode o, Path file) {
        try (ResultStore s = ResultStore.openExisting(file)) {
            RunInfo run = s.run(o.path("run").asText()).orElseThrow();
            assertEquals("adapt", Json.parse(run.config()).path("kind").asText());
            assertEquals(RunStatus.COMPLETE, run.status());
            List<CurvePoint> points = s.curve(run.id());
            int steps = o.path("training").path("steps").asInt();
            List<CurvePoint> loss = points.stream().filter(p -> p.series().equals("train")).toList();
            assertEquals(steps, loss.getLast().x(), "the loss up to the last step");
            assertTrue(loss.stream().allMatch(p -> p.metric().equals("loss") && p.lo() == null && p.value() > 0), loss.toString());
            int rows = 0;
            for (JsonNode row : o.path("rows")) {
                String group = row.path("group").asText();
                String series = group.equals("targets") ? "targets (pooled)" : row.path("condition").asText();
                List<CurvePoint> mine = points.stream().filter(p -> p.series().equals(series)).toList();
                if (group.equals("shift")) {
                    assertTrue(mine.isEmpty(), "a single catalog shift is not a series: " + series);
                    continue;
                }
                rows++;
                assertEquals(2, mine.size(), series + ": " + mine);
                for (int i = 0; i < 2; i++) {
                    JsonNode f = row.path(i == 0 ? "before" : "after");
                    assertEquals(new CurvePoint(series, i == 0 ? 0 : steps, "success", f.path("success_rate").asDouble(), f.path("ci_low").asDouble(),
                            f.path("ci_high").asDouble()), mine.get(i), row.toString());
                    assertTrue(f.has("ci_high"), "the row's figures are named as read here: " + f);
                }
            }
            assertTrue(rows >= 5, "the targets, pooled, static and the tiers");
        }
    }

    @Test
    void aReplayShareDrawsThatShareOfTheEpisodesStatic() throws Exception {
        Path out = dir.resolve("replayed");
        CliTest.Result r = adapt("--shift", "obs.runtime-error", "--episodes", "120", "--replay", "0.5", "--tasks", "1", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode training = Json.parse(Files.readString(out.resolve("training.json")));
        int episodes = training.path("episodes").asInt();
        int shifted = training.path("shifted_episodes").asInt();
        // Each episode is static with probability 0.5: over 100+ episodes the shifted share stays well inside (0.3, 0.7).
        assertTrue(episodes >= 100 && shifted > 0.3 * episodes && shifted < 0.7 * episodes, shifted + " of " + episodes);
        assertEquals(0.5, training.path("alpha").asDouble(), 1e-9);
        // The text table: the target, static and the tiers, before and after.
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("  obs.runtime-error:severity=2 ")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("static ")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("interaction ")), r.out());
        assertTrue(r.out().contains("checkpoint: " + out), r.out());
    }

    @Test
    void targetsComeFromAWatchsEventsAndFromAFrontiersFocusFile() throws Exception {
        Path events = dir.resolve("events.jsonl");
        Files.writeString(events, String.join("\n",
                "{\"kind\":\"transient-errors\",\"tool\":\"search\",\"tier\":\"interaction\",\"shift\":\"obs.runtime-error\","
                        + "\"reproduce\":\"openagent eval --env ENV_FILE --shift 'obs.runtime-error'\"}",
                "{\"kind\":\"resource-added\",\"tool\":\"notes\",\"tier\":null,\"shift\":null,\"reproduce\":null}",
                "{\"kind\":\"format-changed\",\"tool\":\"search\",\"tier\":\"interaction\",\"shift\":\"obs.format:format=xml\","
                        + "\"reproduce\":\"openagent eval --env ENV_FILE --shift 'obs.format:format=xml'\"}",
                "{\"kind\":\"transient-errors\",\"tool\":\"book\",\"tier\":\"interaction\",\"shift\":\"obs.runtime-error\","
                        + "\"reproduce\":\"openagent eval --env ENV_FILE --shift 'obs.runtime-error'\"}") + "\n");
        CliTest.Result w = adapt("--from-watch", events.toString(), "--episodes", "20", "--tasks", "1", "--out", dir.resolve("w").toString(), "--json");
        assertEquals(0, w.code(), w.err());
        assertEquals(List.of("obs.runtime-error:severity=2", "obs.format:format=xml,severity=2"), targets(w.json()));
        ranUnder(row(w.json(), "target", "obs.format:format=xml,severity=2"), "obs.format:format=xml");

        Path focus = dir.resolve("focus.json");
        Files.writeString(focus, "{\"version\": 1, \"agent\": \"policy:tiny\", \"drop\": 0.1, \"entries\": ["
                + "{\"env\": \"poi\", \"shift\": \"query.paraphrase:severity=2\", \"severities\": [2, 3], \"weight\": 1.0, \"drop\": 0.5}]}");
        CliTest.Result f = adapt("--from-frontier", focus.toString(), "--episodes", "20", "--tasks", "1", "--out", dir.resolve("f").toString(), "--json");
        assertEquals(0, f.code(), f.err());
        assertEquals(List.of("query.paraphrase:severity=2"), targets(f.json()));
        // Trained at the entry's severities, as the focus file says.
        assertEquals(List.of("query.paraphrase:severity=2|3"), names(f.json().path("training").path("shift_weights")));
    }

    @Test
    void badInputGetsOneLineAndExitCode2() {
        String out = dir.resolve("x").toString();
        String policy = TinyPolicy.checkpoint().toString();
        check("not a policy checkpoint", "adapt", "--policy", dir.resolve("nothing").toString(), "--shift", "obs.redirect", "--out", out);
        check("unknown shift 'obs.nope'", "adapt", "--policy", policy, "--shift", "obs.nope", "--out", out);
        check("give the shifts to adapt to", "adapt", "--policy", policy, "--out", out);
        check("give only one source of shifts", "adapt", "--policy", policy, "--shift", "obs.redirect", "--from-frontier", out, "--out", out);
        check("--episodes must be at least 1", "adapt", "--policy", policy, "--shift", "obs.redirect", "--episodes", "0", "--out", out);
        check("--replay must be in [0, 1)", "adapt", "--policy", policy, "--shift", "obs.redirect", "--replay", "1", "--out", out);
        check("--replay must be in [0, 1)", "adapt", "--policy", policy, "--shift", "obs.redirect", "--replay", "-0.1", "--out", out);
        check("nothing to adapt to", "adapt", "--policy", policy, "--shift", "none", "--out", out);
        check("no such watch events file", "adapt", "--policy", policy, "--from-watch", dir.resolve("none.jsonl").toString(), "--out", out);
        assertTrue(Files.notExists(dir.resolve("x")), "nothing written on bad input");
    }

    private static void check(String message, String... args) {
        CliTest.Result r = CliTest.run(args);
        assertEquals(2, r.code(), String.join(" ", args) + "\n" + r.err());
        assertTrue(r.err().contains(message), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    private static List<String> targets(JsonNode out) {
        List<String> t = new ArrayList<>();
        for (JsonNode r : out.path("rows")) if (r.path("group").asText().equals("target")) t.add(r.path("condition").asText());
        return t;
    }

    private static List<String> names(JsonNode object) {
        List<String> n = new ArrayList<>();
        object.fieldNames().forEachRemaining(n::add);
        return n;
    }
}
